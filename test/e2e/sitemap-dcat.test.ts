/**
 * The sitemap and the DCAT description over a listening service: valid against the sitemaps.org
 * schema and readable as JSON-LD, every record page listed with its date, counted in the quota like
 * pages, linked from the catalogue and the home page; without a public base URL, no sitemap (its
 * addresses must be absolute) and a 404 that says why.
 */
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { recordLastmod } from '../../src/http/discovery/sitemap.js'
import type { Fact } from '../../src/core/records/record.js'
import { locs, sitemapProblems } from '../support/sitemap-schema.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
const RECORDS = (JSON.parse(readFileSync(BUNDLED, 'utf8')) as { records: Fact[] }).records
const BASE = 'https://records.example.org'
const remaining = (res: { headers: Headers }) =>
  Number(/;r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1])

let server: TestServer
let bare: TestServer
beforeAll(async () => {
  ;[server, bare] = await Promise.all([
    startTestServer({ RECORDS_FILE: BUNDLED, PUBLIC_BASE_URL: BASE }),
    startTestServer({ RECORDS_FILE: BUNDLED }),
  ])
})
afterAll(async () => {
  await Promise.all([server?.close(), bare?.close()])
})

describe('/sitemap.xml', () => {
  it('lists the home page and every record page, dated as the record says, valid against the schema', async () => {
    const res = await server.raw('/sitemap.xml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(await sitemapProblems(res.text, 'urlset')).toEqual([])
    expect(locs(res.text).sort()).toEqual(
      [`${BASE}/`, ...RECORDS.map((r) => `${BASE}/fiches/${r.id}`)].sort(),
    )
    for (const record of RECORDS) {
      const lastmod = recordLastmod(record)
      const entry = `<url><loc>${BASE}/fiches/${record.id}</loc>`
      expect(res.text).toContain(
        lastmod === undefined ? `${entry}</url>` : `${entry}<lastmod>${lastmod}</lastmod>`,
      )
    }
    const page = await server.raw(`/fiches/${RECORDS[0]!.id}`)
    expect(page.status).toBe(200)
    expect((await server.raw('/sitemaps/1.xml')).status).toBe(404)
  })

  it('is not served without a public base URL, and not linked', async () => {
    const res = await bare.get('/sitemap.xml')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      error: {
        code: 'not_found',
        message:
          'No sitemap: its addresses must be absolute, and this instance has no PUBLIC_BASE_URL configured',
      },
    })
    expect((await bare.get('/api/v1/?po_live=1')).body.links).not.toHaveProperty('sitemap')
  })
})

describe('/catalog.jsonld', () => {
  it('is JSON-LD describing the served snapshot, its download and its API', async () => {
    const res = await server.raw('/catalog.jsonld')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    const flat = (await jsonld.flatten(res.body as jsonld.JsonLdDocument)) as unknown as {
      '@id': string
      '@type'?: string[]
    }[]
    const types = flat.flatMap((n) => n['@type'] ?? [])
    for (const type of ['Catalog', 'Dataset', 'Distribution', 'DataService'])
      expect(types).toContain(`http://www.w3.org/ns/dcat#${type}`)
    const catalogue = (await server.get('/api/v1/?po_live=1')).body
    expect(JSON.stringify(flat)).toContain(catalogue.updated_at)
    expect(JSON.stringify(flat)).toContain(`${BASE}/api/v1/facts.ndjson`)
  })
})

describe('both', () => {
  it('are linked from the catalogue and the home page, and every link answers', async () => {
    const { links } = (await server.get('/api/v1/?po_live=1')).body
    expect(links).toMatchObject({ sitemap: `${BASE}/sitemap.xml`, dcat: `${BASE}/catalog.jsonld` })
    const home = await server.raw('/', { headers: { accept: 'text/html' } })
    for (const link of [links.sitemap, links.dcat]) {
      expect(home.text).toContain(`href="${link}"`)
      expect((await server.raw(new URL(link).pathname)).status, link).toBe(200)
    }
    expect((await bare.get('/api/v1/?po_live=1')).body.links.dcat).toBe('/catalog.jsonld')
  })

  it('count in the quota like pages, refuse other methods, and answer 304 to their ETag', async () => {
    const before = remaining(await server.raw('/api/v1/?po_live=1'))
    const after = [
      remaining(await server.raw('/sitemap.xml')),
      remaining(await server.raw('/catalog.jsonld')),
      remaining(await server.raw('/sitemaps/7.xml')),
    ]
    expect(after).toEqual([before - 1, before - 2, before - 3])
    for (const path of ['/sitemap.xml', '/catalog.jsonld']) {
      const res = await server.raw(path)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const etag = res.headers.get('etag')!
      expect((await server.raw(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
      const post = await server.raw(path, { method: 'POST' })
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    }
  })
})
