/**
 * `/changes.atom` as a feed reader reads it: libxml2 (xmllint, Wasm) parses it and validates it
 * against RFC 4287's schema (test/fixtures/atom/atom.rng): id, title and updated on the feed and on
 * every entry, an author, absolute links to the record pages. Counted in the quota; linked from the
 * catalogue and the home page; a 404 that says why without a public base URL.
 */
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateXML } from 'xmllint-wasm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const BASE = 'https://records.example.org'
const SCHEMA = readFileSync(new URL('../fixtures/atom/atom.rng', import.meta.url), 'utf8')
const original = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const file = join(mkdtempSync(join(tmpdir(), 'atom-')), 'records.json')
const publish = (records: Fact[]) => {
  writeFileSync(`${file}.tmp`, JSON.stringify(records))
  renameSync(`${file}.tmp`, file)
}

let server: TestServer
beforeAll(async () => {
  publish(original)
  server = await startTestServer({ RECORDS_FILE: file, PUBLIC_BASE_URL: BASE })
})
afterAll(() => server.close())

async function atomProblems(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'changes.atom', contents: xml },
    schema: { fileName: 'atom.rng', contents: SCHEMA },
    extension: 'relaxng',
  })
  return result.errors.map((e) => e.message)
}

it('the schema refuses a feed without updated, and an entry without a title', async () => {
  const feed = (await server.raw('/changes.atom')).text
  expect(await atomProblems(feed.replace(/<updated>[^<]*<\/updated>\n/, ''))).not.toEqual([])
  expect(await atomProblems(feed.replace('<feed', '<feed><oops>'))).not.toEqual([])
})

it('lists the latest changes, titled in French, linking to the record pages, valid Atom', async () => {
  const swapped = new Promise((resolve) => server.records.onSwap(resolve))
  const [first, second] = [original[0]!, original[1]!]
  publish([{ ...first, title: 'Un titre revu' }, ...original.slice(2)])
  await swapped
  const res = await server.raw('/changes.atom')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
  expect(res.headers.get('ratelimit')).toMatch(/r=\d+/)
  expect(await atomProblems(res.text)).toEqual([])
  expect(res.text).toContain(`<title>Fiche mise à jour : Un titre revu</title>`)
  expect(res.text).toContain(`<title>Fiche retirée : ${second.id}</title>`)
  expect(res.text).toContain(`<link rel="alternate" type="text/html" href="${BASE}/fiches/${first.id}"/>`)
  const entries = res.text.match(/<entry>/g) ?? []
  expect(entries).toHaveLength(2)
  expect(res.text.match(/<link rel="alternate"[^>]*\/><summary>/g)).toHaveLength(2)
})

it('is linked from the catalogue and the home page', async () => {
  const catalogue = await server.get('/api/v1/?po_live=1')
  expect(catalogue.body.links.changes_atom).toBe(`${BASE}/changes.atom`)
  expect(catalogue.body.links.changes).toBe(`${BASE}/api/v1/changes`)
  const home = await server.raw('/', { headers: { accept: 'text/html' } })
  expect(home.text).toContain(`href="${BASE}/changes.atom"`)
})

it('is a 404 that says why without a public base URL', async () => {
  const plain = await startTestServer({ RECORDS_FILE: file })
  try {
    const res = await plain.get('/changes.atom')
    expect(res.status).toBe(404)
    expect(res.body.error.message).toMatch(/PUBLIC_BASE_URL/)
  } finally {
    await plain.close()
  }
})
