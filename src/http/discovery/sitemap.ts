/**
 * `GET /sitemap.xml` (sitemaps.org protocol 0.9): every record page, with the date it last changed,
 * so a crawler re-reads only what moved. The protocol caps one file at 50 000 URLs and 50 MB
 * (52 428 800 bytes) uncompressed; above either, `/sitemap.xml` becomes a sitemap index of parts
 * served at `/sitemaps/{n}.xml`. A sitemap's addresses must be absolute, so it is built only on a
 * configured public base URL (the service never builds an address from `Host`).
 */
import type { Fact } from '../../core/records/record.js'
import { recordPath } from '../pages/record-view.js'

const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'
/** Where the parts of a split sitemap are served: `/sitemaps/1.xml`, `/sitemaps/2.xml`… */
export const SITEMAP_PARTS_ROOT = '/sitemaps'
const sitemapPartPath = (n: number): string => `${SITEMAP_PARTS_ROOT}/${n}.xml`

/** The protocol's limits for one sitemap file (and one index). */
export const SITEMAP_LIMITS = { maxUrls: 50_000, maxBytes: 52_428_800 } as const
export type SitemapLimits = { maxUrls: number; maxBytes: number }

export type SitemapEntry = { loc: string; lastmod?: string }

/** `/sitemap.xml` and, when it is an index, the parts it lists (parts[0] is `/sitemaps/1.xml`). */
export type Sitemaps = { root: string; parts: string[] }

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
const URLSET_OPEN = `${HEAD}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`
const URLSET_CLOSE = '</urlset>\n'

const urlElement = (e: SitemapEntry) =>
  `<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod === undefined ? '' : `<lastmod>${e.lastmod}</lastmod>`}</url>\n`

/**
 * When a record last changed, as the protocol's W3C datetime: the later of its modification and its
 * verification (a re-reading against the official text changes what the page says about it).
 * Undefined when the record says neither: no date is better than an invented one.
 */
export function recordLastmod(record: Pick<Fact, 'modified_at' | 'verified_at'>): string | undefined {
  const dates = [record.modified_at, record.verified_at]
    .filter((d): d is string => d !== undefined)
    .map((d) => ({ text: d, time: Date.parse(d.length === 10 ? `${d}T00:00:00Z` : d) }))
    .filter((d) => !Number.isNaN(d.time))
  if (dates.length === 0) return undefined
  const latest = dates.reduce((a, b) => (b.time > a.time ? b : a))
  // A calendar date stays a date; a date-time is written in UTC, one spelling per instant.
  return latest.text.length === 10 ? latest.text : new Date(latest.time).toISOString()
}

export function recordEntry(base: string, record: Fact): SitemapEntry {
  return { loc: `${base}${recordPath(record.id)}`, lastmod: recordLastmod(record) }
}

/** The entries cut into files that each hold at most `maxUrls` URLs and `maxBytes` bytes. */
function split(entries: readonly SitemapEntry[], limits: SitemapLimits): { text: string; count: number }[] {
  const frame = Buffer.byteLength(URLSET_OPEN) + Buffer.byteLength(URLSET_CLOSE)
  const files: { text: string; count: number }[] = []
  let body: string[] = []
  let bytes = frame
  for (const entry of entries) {
    const line = urlElement(entry)
    const size = Buffer.byteLength(line)
    if (frame + size > limits.maxBytes)
      throw new Error(`sitemap: one entry is larger than a file may be: ${entry.loc}`)
    if (body.length === limits.maxUrls || bytes + size > limits.maxBytes) {
      files.push({ text: URLSET_OPEN + body.join('') + URLSET_CLOSE, count: body.length })
      body = []
      bytes = frame
    }
    body.push(line)
    bytes += size
  }
  files.push({ text: URLSET_OPEN + body.join('') + URLSET_CLOSE, count: body.length })
  return files
}

/**
 * The sitemap of `entries` on `base` (an absolute URL, no trailing slash): one urlset when it fits,
 * otherwise an index at the root listing one urlset per part, each part dated by its latest entry.
 */
export function buildSitemaps(
  base: string,
  entries: readonly SitemapEntry[],
  limits: SitemapLimits = SITEMAP_LIMITS,
): Sitemaps {
  const files = split(entries, limits)
  if (files.length === 1) return { root: files[0]!.text, parts: [] }
  if (files.length > limits.maxUrls)
    throw new Error(`sitemap: ${files.length} parts exceed what one index may list`)
  let start = 0
  const listed = files.map(({ count }, i) => {
    const slice = entries.slice(start, start + count)
    start += count
    let lastmod: string | undefined
    for (const { lastmod: date } of slice)
      if (date !== undefined && (lastmod === undefined || Date.parse(date) > Date.parse(lastmod)))
        lastmod = date
    const loc = escapeXml(`${base}${sitemapPartPath(i + 1)}`)
    return `<sitemap><loc>${loc}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}</sitemap>\n`
  })
  const root = `${HEAD}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${listed.join('')}</sitemapindex>\n`
  return { root, parts: files.map((f) => f.text) }
}
