import { describe, expect, it } from 'vitest'
import { routeTable } from './route-table.js'

/** The router's rule as written before the matcher walked paths in place: split, then compare segment by segment. */
function splitMatches(url: string, path: string): boolean {
  const segments = url.split('/')
  const rest = segments.at(-1) === '*'
  const fixed = rest ? segments.slice(0, -1) : segments
  const parts = path.split('/')
  if (rest ? parts.length < segments.length : parts.length !== segments.length) return false
  return fixed.every((segment, i) => segment.startsWith(':') || segment === parts[i])
}

describe('the route table', () => {
  const table = routeTable({ mounts: [], hostedServerCardPath: '/mcp/server-card' })
  const expected = (path: string) =>
    table.routes.find((r) => r.url === path) ?? table.routes.find((r) => splitMatches(r.url, path))

  // Every address, its parameters filled in several ways, then cut, lengthened and misspelled.
  const paths = new Set<string>(['', '/', '//', '/api', '/api/v1//', '/fiches/', '/docs', '/x/y/z'])
  for (const { url } of table.routes) {
    for (const fill of ['', 'x', 'a-b.c', 'a/b', '%20']) {
      const path = url.replace(/:\w+/g, fill).replace(/\*$/, fill)
      for (const variant of [
        path,
        `${path}/`,
        `${path}/more`,
        path.slice(0, -1),
        path.slice(0, path.lastIndexOf('/')),
        path.toUpperCase(),
        `/x${path}`,
        path.replace(/\/(?=[^/]*$)/, '//'),
      ])
        paths.add(variant)
    }
  }

  it(`reads ${paths.size} paths as the split rule does: the same route or none`, () => {
    expect(table.routes.some((r) => r.url.includes(':'))).toBe(true)
    expect(table.routes.some((r) => r.url.endsWith('*'))).toBe(true)
    for (const path of paths) expect(table.lookup(path).route?.url, path).toBe(expected(path)?.url)
  })
})
