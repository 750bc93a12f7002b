/**
 * Every XML document the service serves (`/changes.atom`, `/sitemap.xml`), read by libxml2 (xmllint,
 * Wasm) as a feed reader or a crawler reads it, when the records hold the text XML makes hard: the
 * five characters it escapes, `]]>`, comment and entity look-alikes, emoji and other astral
 * characters, bidirectional controls, U+0085, U+2028, a carriage return, noncharacters XML allows.
 * Each document must be valid against its schema, and what libxml2 reads back (its canonical form)
 * must be the record's text, character for character. A record holding what XML 1.0 forbids is
 * refused at reload, and the good snapshot, with its feed, keeps serving (issue 43, finding 7).
 */
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateXML } from 'xmllint-wasm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { locs, sitemapProblems } from '../support/sitemap-schema.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

/** A base URL holding characters XML escapes, in the addresses of both documents. */
const BASE = "https://records.example.org/r&d's"
const ATOM_SCHEMA = readFileSync(new URL('../fixtures/atom/atom.rng', import.meta.url), 'utf8')

/** Titles allowed in a record that XML, or a careless writer of it, finds hard. */
const HOSTILE_TITLES = [
  `Tom & Jerry <b>gras</b> "double" 'simple' &amp; &#0; &#x1F600; &lt;`,
  'Fin de section ]]> et <![CDATA[ début ]]> <!-- commentaire --> <?pi x?>',
  'Émoji 😀🚗🛑, astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 et le dernier point de code \u{10FFFF}',
  'Bidi \u202Egnp.exe\u202C, isolé \u2066abc\u2069, marques \u200E\u200F\u061C',
  'Suite\u0085ligne, séparateur\u2028de ligne\u2029de paragraphe',
  'Retour\r\nchariot, tabulation\tici, et saut\nde ligne',
  'DEL\u007F, C1 \u0080\u009F, BOM \uFEFF, U+FFFD \uFFFD, non-caractère \uFDD0 \u{1FFFE}',
  'Espace insécable\u00A0et fine\u202F; zéro\u200Blargeur',
]

const original = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const file = join(mkdtempSync(join(tmpdir(), 'xml-hostile-')), 'records.json')
const publish = (records: unknown[]) => {
  writeFileSync(`${file}.tmp`, JSON.stringify(records))
  renameSync(`${file}.tmp`, file)
}
/** The fixture, its first records retitled with the hostile titles, and one of them removed. */
const hostile: Fact[] = original
  .slice(0, -1)
  .map((r, i) => (i < HOSTILE_TITLES.length ? { ...r, title: HOSTILE_TITLES[i]! } : r))

let server: TestServer
beforeAll(async () => {
  publish(original)
  server = await startTestServer({ RECORDS_FILE: file, PUBLIC_BASE_URL: BASE })
  const swapped = new Promise((resolve) => server.records.onSwap(resolve))
  publish(hostile)
  await swapped
})
afterAll(() => server?.close())

/** The document as libxml2 reads it, written in its canonical form (W3C C14N), and its schema errors. */
async function read(xml: string, schema: { fileName: string; contents: string }, relaxng: boolean) {
  const result = await validateXML({
    xml: { fileName: 'document.xml', contents: xml },
    schema,
    ...(relaxng ? { extension: 'relaxng' as const } : {}),
    normalization: 'c14n',
  })
  return { problems: result.errors.map((e) => e.message), canonical: result.normalized }
}

/** The text of each `name` element of a canonical document: C14N escapes only `&`, `<`, `>` and CR there. */
const texts = (canonical: string, name: string): string[] =>
  [...canonical.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) =>
    m[1]!.replace(/&#xD;/g, '\r').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
  )
/** The `href` attributes of a canonical document: C14N escapes `&`, `<`, `"` and whitespace controls there. */
const hrefs = (canonical: string): string[] =>
  [...canonical.matchAll(/href="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&'),
  )

it('serves a valid Atom feed whose titles libxml2 reads back as the records hold them', async () => {
  const res = await server.raw('/changes.atom')
  expect(res.status).toBe(200)
  const { problems, canonical } = await read(res.text, { fileName: 'atom.rng', contents: ATOM_SCHEMA }, true)
  expect(problems).toEqual([])
  const titles = texts(canonical, 'title')
  for (const title of HOSTILE_TITLES) expect(titles).toContain(`Fiche mise à jour : ${title}`)
  expect(titles).toContain(`Fiche retirée : ${original.at(-1)!.id}`)
  expect(texts(canonical, 'id')).toContain(`${BASE}/changes.atom`)
  expect(hrefs(canonical)).toContain(`${BASE}/fiches/${original[0]!.id}`)
})

it('serves a valid sitemap whose addresses libxml2 reads back as the service writes them', async () => {
  const res = await server.raw('/sitemap.xml')
  expect(res.status).toBe(200)
  expect(await sitemapProblems(res.text, 'urlset')).toEqual([])
  const { canonical } = await read(res.text, { fileName: 'x.xsd', contents: SITEMAP_XSD }, false)
  const expected = [`${BASE}/`, ...hostile.map((r) => `${BASE}/fiches/${r.id}`)]
  expect(texts(canonical, 'loc').sort()).toEqual(expected.sort())
  expect(locs(res.text).sort()).toEqual(expected.sort())
})

it('refuses a reload holding what XML 1.0 forbids, and keeps serving the feed it had', async () => {
  const before = (await server.raw('/changes.atom')).text
  const refusedBefore = await refusals()
  publish(hostile.map((r, i) => (i === 0 ? { ...r, title: 'Saut\u000bde ligne de traitement de texte' } : r)))
  await expect.poll(refusals).toBe(refusedBefore + 1)
  const after = await server.raw('/changes.atom')
  expect(after.status).toBe(200)
  expect(after.text).toBe(before)
  const record = await server.get(`/api/v1/facts/${original[0]!.id}?po_live=1`)
  expect(record.body.title).toBe(HOSTILE_TITLES[0])
})

const SITEMAP_XSD = readFileSync(new URL('../fixtures/sitemaps/sitemap.xsd', import.meta.url), 'utf8')

async function refusals(): Promise<number> {
  const metrics = (await server.raw('/metrics')).text
  const match = /^reference_records_records_updates_refused_total(?:\{[^}]*\})? (\S+)$/m.exec(metrics)
  return match === null ? 0 : Number(match[1])
}
