import { describe, expect, it } from 'vitest'
import { buildRobotsTxt } from './robots-txt.js'

/** The rules of one `User-agent: *` group, as a crawler reads them (RFC 9309: field names are case-insensitive). */
function rules(text: string): { allow: string[]; disallow: string[]; sitemaps: string[] } {
  const out = { allow: [] as string[], disallow: [] as string[], sitemaps: [] as string[] }
  for (const line of text.split('\n')) {
    const m = /^([a-z-]+):\s*(.*)$/i.exec(line.replace(/#.*/, '').trim())
    if (m === null) continue
    const field = m[1]!.toLowerCase()
    if (field === 'allow') out.allow.push(m[2]!)
    if (field === 'disallow') out.disallow.push(m[2]!)
    if (field === 'sitemap') out.sitemaps.push(m[2]!)
  }
  return out
}

/** RFC 9309's longest-match rule, Allow winning a tie. */
function allowed(text: string, path: string): boolean {
  const { allow, disallow } = rules(text)
  const longest = (list: string[]) =>
    Math.max(-1, ...list.filter((r) => path.startsWith(r)).map((r) => r.length))
  return longest(allow) >= longest(disallow)
}

describe('buildRobotsTxt', () => {
  it('names the sitemap by its absolute address when there is a public base URL', () => {
    const text = buildRobotsTxt({ publicBaseUrl: 'https://records.example.org', sitemapPath: '/sitemap.xml' })
    expect(rules(text).sitemaps).toEqual(['https://records.example.org/sitemap.xml'])
    expect(text).toMatch(/^User-agent: \*$/m)
  })

  it('names no sitemap without one: a Sitemap line must be absolute', () => {
    const text = buildRobotsTxt({ sitemapPath: '/sitemap.xml', mcpPath: '/mcp' })
    expect(rules(text).sitemaps).toEqual([])
    expect(text).not.toMatch(/sitemap/i)
  })

  it('allows the pages and the discovery documents, and keeps crawlers off the API and MCP', () => {
    const text = buildRobotsTxt({ sitemapPath: '/sitemap.xml', mcpPath: '/mcp' })
    for (const path of [
      '/',
      '/fiches/fait-643b555e754f953d',
      '/recherche?q=vitesse',
      '/docs',
      '/docs/spec',
      '/reference',
      '/llms.txt',
      '/sitemap.xml',
      '/catalog.jsonld',
      '/changes.atom',
    ])
      expect(allowed(text, path), path).toBe(true)
    for (const path of ['/api/v1/facts?q=vitesse', '/api/v1/', '/mcp'])
      expect(allowed(text, path), path).toBe(false)
  })

  it('puts a public path prefix in every rule, where crawlers read them', () => {
    const text = buildRobotsTxt({
      publicBaseUrl: 'https://example.org/records',
      sitemapPath: '/sitemap.xml',
      mcpPath: '/mcp',
    })
    expect(rules(text)).toEqual({
      allow: ['/records/'],
      disallow: ['/records/api/v1/', '/records/mcp'],
      sitemaps: ['https://example.org/records/sitemap.xml'],
    })
  })
})
