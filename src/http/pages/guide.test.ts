/** The guides as served: every link between them lands on a served page and an existing anchor. */
import { describe, expect, it } from 'vitest'
import { GUIDES, renderGuide } from './guide.js'

const guides = GUIDES.map((g) => renderGuide(g, ''))
const ids = (page: string) => new Set([...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))
const hrefs = (page: string) => [...page.matchAll(/ href="([^"]+)"/g)].map((m) => m[1]!)

describe('the guides in HTML', () => {
  it('resolves every link inside the site to a served guide and, with a fragment, to one of its headings', () => {
    const byPath = new Map(guides.map((g) => [g.source.path, ids(g.html)]))
    const internal = guides.flatMap((g) => hrefs(g.html).map((href) => ({ from: g.source.path, href })))
    expect(internal.some((l) => l.href === '/docs/search')).toBe(true) // api.md's link to search.md, broken when served raw
    for (const { from, href } of internal) {
      if (/^[a-z]+:/.test(href)) continue // another site
      const [path, fragment] = href.split('#') as [string, string | undefined]
      const target = path === '' ? from : path
      expect(byPath.has(target), `${from} → ${href}`).toBe(true)
      if (fragment !== undefined) expect(byPath.get(target)!.has(fragment), `${from} → ${href}`).toBe(true)
    }
  })
  it('gives headings GitHub’s anchors, so links written for the repository work here', () => {
    const api = guides[0]!
    expect(api.toc.map((t) => t.slug)).toContain('get-apiv1facts--search-searchfacts')
    expect(api.toc.map((t) => t.slug)).toContain('mcp-tool-protocol-server')
    expect(api.title).toBe('Reference-Records API v1 — guide')
  })
  it('makes code blocks and tables reachable by keyboard when they scroll', () => {
    expect(guides[0]!.html).toMatch(/<pre tabindex="0"><code class="language-json">/)
    expect(guides[0]!.html).toContain('<div class="table-scroll" tabindex="0">')
  })
  it('keeps the text of a link to a file the site does not serve, without the broken link', () => {
    const page = renderGuide(
      GUIDES[0]!,
      '',
      '# T\n\nSee [the runs](../bench/results/history.md) and [search](search.md#x).\n',
    ).html
    expect(page).toContain('See the runs and <a href="/docs/search#x">search</a>.')
  })
  it('does not let raw HTML of a guide through', () => {
    expect(renderGuide(GUIDES[0]!, '', '# T\n\n<script>alert(1)</script>\n').html).toContain('&lt;script&gt;')
  })
})

it('serves the Markdown with its links pointing at the served Markdown', () => {
  const api = renderGuide(GUIDES[0]!, 'https://records.example.org')
  expect(api.markdown).toContain('](https://records.example.org/docs/search.md)')
  expect(api.markdown).not.toMatch(/\]\(search\.md/)
  expect(api.html).toContain('href="https://records.example.org/docs/search"')
})
