/**
 * A record page's structured data as a browser reads it (Debian's Chromium, driven by playwright-core):
 * the JSON-LD block parsed back from the DOM agrees with the record the API serves, for one record of
 * every kind in the sample and for a hostile record whose free text tries to close the script; the
 * citation tags, the copyable citation and the CSL-JSON are there; an old verification is flagged.
 */
import { existsSync, readFileSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { needsReverification } from '../../src/core/records/status.js'
import { temporaryFiles } from '../support/temporary-files.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const CHROMIUM = '/usr/bin/chromium'
const available = existsSync(CHROMIUM)
if (!available) {
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (see .ci/run)`)
  console.warn(`SKIPPED: record metadata in Chromium (no ${CHROMIUM}; apt-get install -y chromium)`)
}
const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
const SAMPLE = (JSON.parse(readFileSync(BUNDLED, 'utf8')) as { records: Fact[] }).records
const TYPES: Record<string, string> = {
  fact: 'Article',
  expertise: 'Article',
  article: 'Article',
  lesson: 'LearningResource',
  page: 'WebPage',
  tool: 'WebPage',
  offer: 'Offer',
  organization: 'Organization',
  person: 'Person',
}
const HOSTILE_TITLE = 'Règle </script><script>document.title="pwned"</script>\u2028<!-- & \u2029 fin'
const hostile: Fact = {
  ...SAMPLE.find((r) => r.kind === 'fact')!,
  id: 'fait-00000000000000aa',
  url: 'https://code-et-conduite.example/hostile',
  title: HOSTILE_TITLE,
  description: '</SCRIPT ><img src=x onerror=alert(1)>',
}

let server: TestServer
let browser: Browser
beforeAll(async () => {
  if (!available) return
  const file = temporaryFiles('record-metadata-', 'json').write(
    JSON.stringify({ ...JSON.parse(readFileSync(BUNDLED, 'utf8')), records: [...SAMPLE, hostile] }),
  )
  server = await startTestServer({ RECORDS_FILE: file })
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** What the browser parsed: every JSON-LD block, the citation_* tags, the citation panel. */
async function readMetadata(page: Page) {
  return page.evaluate(() => ({
    jsonLd: Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map(
      (s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>,
    ),
    meta: Object.fromEntries(
      Array.from(document.querySelectorAll('meta[name^="citation_"], meta[name^="DC."]')).map((m) => [
        m.getAttribute('name'),
        m.getAttribute('content'),
      ]),
    ),
    csl: JSON.parse(document.querySelector('[data-citation="csl-json"]')?.textContent ?? 'null') as unknown,
    text: document.querySelector('[data-citation="text"]')?.textContent,
    scripts: document.querySelectorAll('script').length,
    reverify: document.querySelector('[data-reverify]')?.textContent ?? null,
    title: document.title,
  }))
}

/** The JSON-LD checked against the record the API serves. */
function expectAgreement(ld: Record<string, unknown>, record: Fact) {
  expect(ld['@context']).toBe('https://schema.org')
  expect(ld['@type']).toBe(TYPES[record.kind])
  expect(ld['@type']).not.toBe('Legislation')
  expect(ld['name']).toBe(record.title)
  expect(ld['url']).toBe(record.url)
  expect(ld['identifier']).toBe(record.id)
  if (record.description !== undefined) expect(ld['description']).toBe(record.description)
  if (['Offer', 'Organization', 'Person'].includes(TYPES[record.kind]!)) return
  expect(ld['dateModified']).toBe(record.modified_at)
  expect(ld['publisher']).toMatchObject({ '@type': 'Organization' })
  const official = record.sources.filter((s) => s.type === 'official')
  expect(ld['isBasedOn'] ?? []).toEqual(
    official.map((s) => ({ '@type': 'Legislation', name: s.label, url: s.url })),
  )
  const others = (ld['citation'] ?? []) as { url?: string }[]
  expect(others.filter((c) => typeof c === 'object').map((c) => c.url)).toEqual(
    record.sources.filter((s) => s.type !== 'official').map((s) => s.url),
  )
}

describe.runIf(available)('record pages in Chromium', { timeout: 60_000 }, () => {
  const oneOfEachKind = [...new Map(SAMPLE.map((r) => [r.kind, r])).values()]

  it.each(oneOfEachKind.map((r) => [r.kind, r.id] as const))(
    'a %s page carries JSON-LD that agrees with the record, citation tags and CSL-JSON',
    async (_kind, id) => {
      const page = await browser.newPage()
      await page.goto(`${server.url}/fiches/${id}`)
      const got = await readMetadata(page)
      const record = (await server.get(`/api/v1/facts/${id}?po_live=1`)).body as Fact
      expect(got.jsonLd).toHaveLength(1)
      expectAgreement(got.jsonLd[0]!, record)
      expect(got.meta['citation_title']).toBe(record.title)
      expect(got.meta['citation_public_url']).toBe(record.url)
      expect(got.meta['DC.identifier']).toBe(record.url)
      expect(got.csl).toEqual([expect.objectContaining({ id, title: record.title, URL: record.url })])
      expect(got.text).toContain(`« ${record.title} »`)
      expect(got.text).toContain(record.url)
      expect(await page.locator('section[aria-labelledby="citer"] button.copy').count()).toBe(3)
      await page.close()
    },
  )

  it('keeps a hostile record inside its JSON-LD: one data block, no script run, the same title read back', async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/fiches/${hostile.id}`)
    const got = await readMetadata(page)
    expect(got.jsonLd).toHaveLength(1)
    expect(got.jsonLd[0]!['name']).toBe(HOSTILE_TITLE)
    expect(got.jsonLd[0]!['description']).toBe(hostile.description)
    expect(got.title).not.toBe('pwned')
    expect(got.meta['citation_title']).toBe(HOSTILE_TITLE)
    await page.close()
  })

  it('flags an official rule whose verification is more than 12 months old, and only such a rule', async () => {
    const now = new Date()
    const old = SAMPLE.find((r) => needsReverification(r, now))
    const fresh = SAMPLE.find(
      (r) => r.kind === 'fact' && r.verified_at !== undefined && !needsReverification(r, now),
    )
    expect(old, 'the sample has a rule verified more than a year ago').toBeDefined()
    const page = await browser.newPage()
    await page.goto(`${server.url}/fiches/${old!.id}`)
    expect((await readMetadata(page)).reverify).toBe('à revérifier')
    expect(await page.textContent('#provenance + * , .panel-official')).toMatch(/il y a \d+ (mois|ans?)/)
    await page.goto(`${server.url}/fiches/${fresh!.id}`)
    expect((await readMetadata(page)).reverify).toBeNull()
    // The same count in the API's catalogue and on the home page.
    const flagged = [...SAMPLE, hostile].filter((r) => needsReverification(r, now)).length
    expect((await server.get('/api/v1/?po_live=1')).body.records.to_reverify).toBe(flagged)
    await page.goto(`${server.url}/`)
    expect(await page.textContent('[data-reverify-count]')).toContain(
      `Dont ${flagged} règles officielles à revérifier`,
    )
    await page.close()
  })
})
