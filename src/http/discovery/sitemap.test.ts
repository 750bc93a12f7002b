import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../../core/records/record.js'
import { locs, sitemapProblems } from '../../../test/support/sitemap-schema.js'
import { buildSitemaps, recordEntry, recordLastmod, type SitemapEntry } from './sitemap.js'

const BASE = 'https://records.example.org'
const SAMPLE = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const entries = (n: number): SitemapEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}/fiches/page-${i.toString(16).padStart(16, '0')}`,
    lastmod: `2026-${String((i % 12) + 1).padStart(2, '0')}-01`,
  }))

describe('recordLastmod', () => {
  it('is the later of the modification and the verification, a date staying a date', () => {
    expect(recordLastmod({ modified_at: '2026-03-14T09:30:00+02:00', verified_at: '2026-01-02' })).toBe(
      '2026-03-14T07:30:00.000Z',
    )
    expect(recordLastmod({ modified_at: '2025-03-14T09:30:00Z', verified_at: '2026-01-02' })).toBe(
      '2026-01-02',
    )
    expect(recordLastmod({})).toBeUndefined()
    expect(recordLastmod({ modified_at: 'not a date' })).toBeUndefined()
    // Equal instants: the modification's spelling; a year before 1000 keeps its four digits.
    expect(recordLastmod({ modified_at: '2026-01-02T00:00:00Z', verified_at: '2026-01-02' })).toBe(
      '2026-01-02T00:00:00.000Z',
    )
    expect(recordLastmod({ verified_at: '0999-12-31' })).toBe('0999-12-31')
  })
})

// The protocol's own limit of 50 000 URLs, split into an index: sitemap.scale.test.ts.
describe('buildSitemaps', () => {
  it('lists every record page of the sample, dated, valid against the sitemaps.org schema', async () => {
    const { root, parts } = buildSitemaps(
      BASE,
      SAMPLE.map((r) => recordEntry(BASE, r)),
    )
    expect(parts).toEqual([])
    expect(await sitemapProblems(root, 'urlset')).toEqual([])
    expect(locs(root)).toEqual(SAMPLE.map((r) => `${BASE}/fiches/${r.id}`))
    const dated = SAMPLE.filter((r) => recordLastmod(r) !== undefined).length
    expect((root.match(/<lastmod>/g) ?? []).length).toBe(dated)
    // Every official rule carries its verification date, so every rule's page is dated.
    for (const rule of SAMPLE.filter((r) => r.kind === 'fact'))
      expect(root).toContain(`<loc>${BASE}/fiches/${rule.id}</loc><lastmod>`)
  })

  it('escapes what XML reserves in an address', async () => {
    const { root } = buildSitemaps(BASE, [{ loc: `${BASE}/recherche?q=a&kind=fact` }])
    expect(root).toContain('<loc>https://records.example.org/recherche?q=a&amp;kind=fact</loc>')
    expect(await sitemapProblems(root, 'urlset')).toEqual([])
  })

  it('splits on bytes as well as on URLs, never past either limit', async () => {
    const all = entries(100)
    const oneEntryBytes = Buffer.byteLength(
      `<url><loc>${all[0]!.loc}</loc><lastmod>${all[0]!.lastmod}</lastmod></url>\n`,
    )
    const limits = { maxUrls: 40, maxBytes: 200 + 30 * oneEntryBytes }
    const { root, parts } = buildSitemaps(BASE, all, limits)
    expect(parts.length).toBeGreaterThanOrEqual(4)
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(limits.maxBytes)
      expect(locs(part).length).toBeLessThanOrEqual(limits.maxUrls)
      expect(await sitemapProblems(part, 'urlset')).toEqual([])
    }
    expect(parts.flatMap(locs)).toEqual(all.map((e) => e.loc))
    expect(await sitemapProblems(root, 'sitemapindex')).toEqual([])
    // Exactly at the URL limit, one file.
    expect(buildSitemaps(BASE, all.slice(0, 40), { maxUrls: 40, maxBytes: 1e9 }).parts).toEqual([])
  })
})
