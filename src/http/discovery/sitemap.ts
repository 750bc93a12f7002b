/**
 * `GET /sitemap.xml` (sitemaps.org protocol 0.9): every record page, with the date it last changed,
 * so a crawler re-reads only what moved. The protocol caps one file at 50 000 URLs and 50 MB
 * (52 428 800 bytes) uncompressed; above either, `/sitemap.xml` becomes a sitemap index of parts
 * served at `/sitemaps/{n}.xml`. A sitemap's addresses must be absolute, so it is built only on a
 * configured public base URL (the service never builds an address from `Host`).
 */
import { lastChange, lastChangeText } from '../../core/records/last-change.js'
import type { Fact } from '../../core/records/record.js'
import type { SitemapColumns } from '../../core/search/record-index.js'
import { ID_PREFIXES } from '../../core/search/snapshot-builder.js'
import { recordPath } from '../pages/record-view.js'
import { escapeXml } from '../xml-text.js'

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
export const recordLastmod = lastChange

export function recordEntry(base: string, record: Fact): SitemapEntry {
  return { loc: `${base}${recordPath(record.id)}`, lastmod: recordLastmod(record) }
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0')

/**
 * The sitemap of a snapshot from its columns (RecordIndex.sitemapColumns): the home page, then every
 * record page in the snapshot's order, no record parsed. Run in a thread of its own for a large
 * snapshot (sitemap-worker.ts).
 */
export function sitemapsFromColumns(
  base: string,
  columns: SitemapColumns,
  limits: SitemapLimits = SITEMAP_LIMITS,
): Sitemaps {
  const { count, idPrefix, idHigh, idLow, lastChange: time, lastChangeDate: date } = columns
  const entries: SitemapEntry[] = [{ loc: `${base}/` }]
  for (let doc = 0; doc < count; doc++) {
    const id = `${ID_PREFIXES[idPrefix[doc]!]!}${hex8(idHigh[doc]!)}${hex8(idLow[doc]!)}`
    entries.push({
      loc: `${base}${recordPath(id)}`,
      lastmod: lastChangeText({ time: time[doc]!, date: date[doc]! }),
    })
  }
  return buildSitemaps(base, entries, limits)
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
