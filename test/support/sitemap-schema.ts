/**
 * A sitemap checked as a crawler's XML parser reads it: libxml2 (xmllint, compiled to Wasm) parses
 * the document and validates it against the sitemaps.org schema (a urlset or an index), then the
 * protocol's limits that the schema does not express: 50 000 URLs and 50 MB per file.
 */
import { readFileSync } from 'node:fs'
import { validateXML } from 'xmllint-wasm'

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/sitemaps/${name}`, import.meta.url), 'utf8')
const SCHEMAS = { urlset: fixture('sitemap.xsd'), sitemapindex: fixture('siteindex.xsd') }

const PROTOCOL_LIMITS = { maxUrls: 50_000, maxBytes: 52_428_800 }

/** The schema errors of `xml` as a sitemap of the given root element (empty when valid), and the limits it breaks. */
export async function sitemapProblems(xml: string, root: keyof typeof SCHEMAS): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'sitemap.xml', contents: xml },
    schema: { fileName: `${root}.xsd`, contents: SCHEMAS[root] },
    // A 50 MB file needs more than xmllint's default 16 MB of memory.
    maxMemoryPages: 16_384,
  })
  const problems = result.errors.map((e) => e.message)
  const entries = (xml.match(root === 'urlset' ? /<url>/g : /<sitemap>/g) ?? []).length
  if (entries > PROTOCOL_LIMITS.maxUrls)
    problems.push(`${entries} entries: more than ${PROTOCOL_LIMITS.maxUrls}`)
  const bytes = Buffer.byteLength(xml)
  if (bytes > PROTOCOL_LIMITS.maxBytes) problems.push(`${bytes} bytes: more than ${PROTOCOL_LIMITS.maxBytes}`)
  return problems
}

/** The `<loc>` values of a sitemap or an index, unescaped. */
export const locs = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
    m[1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  )
