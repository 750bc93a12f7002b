/** A sitemap at the protocol's limit of 50 000 URLs, and one past it; sitemap.test.ts splits small ones. */
import { describe, expect, it } from 'vitest'
import { locs, sitemapProblems } from '../../../test/support/sitemap-schema.js'
import { SITEMAP_LIMITS, buildSitemaps, type SitemapEntry } from './sitemap.js'

const BASE = 'https://records.example.org'
const entries = (n: number): SitemapEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}/fiches/page-${i.toString(16).padStart(16, '0')}`,
    lastmod: `2026-${String((i % 12) + 1).padStart(2, '0')}-01`,
  }))

describe("buildSitemaps, at the protocol's limits", () => {
  it('becomes an index of parts above 50 000 URLs, every part within the limits', async () => {
    const all = entries(SITEMAP_LIMITS.maxUrls + 1)
    const { root, parts } = buildSitemaps(BASE, all)
    expect(parts).toHaveLength(2)
    expect(await sitemapProblems(root, 'sitemapindex')).toEqual([])
    expect(locs(root)).toEqual([`${BASE}/sitemaps/1.xml`, `${BASE}/sitemaps/2.xml`])
    expect(root).toContain('<lastmod>2026-12-01</lastmod>')
    for (const part of parts) expect(await sitemapProblems(part, 'urlset')).toEqual([])
    expect(parts.flatMap(locs)).toEqual(all.map((e) => e.loc))
  }, 60_000)
})
