/** RecordsClient against the real service, listening on 127.0.0.1 with the small fixture. */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InvalidParameterError, NotFoundError, RecordsClient } from '../../src/client/index.js'
import { loadConfig } from '../../src/config.js'
import type { Fact } from '../../src/core/records/record.js'
import { startServer, type RunningServer } from '../../src/service/service.js'

const FIXTURE = 'test/fixtures/records.small.json'
const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fact[]
const settings = { PORT: '0', HOST: '127.0.0.1', RECORDS_FILE: FIXTURE, LOG_LEVEL: 'silent' }

let server: RunningServer
let client: RecordsClient
beforeAll(async () => {
  server = await startServer(loadConfig(settings))
  client = new RecordsClient({ baseUrl: `${server.url}/api/v1` })
})
afterAll(() => server?.close())

/** A fetch that logs each request and can drop po_live from the first one, to meet the server's real 307. */
function loggingFetch(options: { dropPoLiveOnce?: boolean } = {}) {
  const log: string[] = []
  let drop = options.dropPoLiveOnce ?? false
  const fetchFn: typeof fetch = (input, init) => {
    const url = new URL(String(input))
    if (drop) {
      url.searchParams.delete('po_live')
      drop = false
    }
    log.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`)
    return fetch(url, init)
  }
  return { log, fetch: fetchFn }
}

describe('RecordsClient against the service', () => {
  it('reads the catalogue', async () => {
    const catalogue = await client.catalogue()
    expect(catalogue.version).toBe('1.4.0')
    expect(catalogue.records.total).toBe(fixture.length)
    expect(catalogue.records.by_kind.fact).toBe(fixture.filter((r) => r.kind === 'fact').length)
  })

  it('searches with words and filters', async () => {
    const page = await client.search({ q: 'vitesse', kind: 'fact', region: 'france' })
    expect(page).toMatchObject({ total: 1, limit: 10, offset: 0 })
    expect(page.results.map((r) => r.id)).toEqual(['fait-643b555e754f953d'])
    const lessons = await client.search({ kind: 'lesson', limit: 2, offset: 1 })
    expect(lessons).toMatchObject({ total: 3, limit: 2, offset: 1 })
    expect(lessons.results).toHaveLength(2)
  })

  it('reads one record, with its provenance', async () => {
    const record = await client.get('fait-643b555e754f953d')
    expect(record).toEqual(fixture.find((r) => r.id === 'fait-643b555e754f953d'))
  })

  it('throws NotFoundError for an unknown id and InvalidParameterError for a bad parameter', async () => {
    await expect(client.get('fait-0000000000000000')).rejects.toBeInstanceOf(NotFoundError)
    await expect(client.get('fait-0000000000000000')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    })
    await expect(client.search({ limit: 51 })).rejects.toBeInstanceOf(InvalidParameterError)
  })

  it('reads the OpenAPI document', async () => {
    const document = await client.openapi()
    expect(document).toMatchObject({ openapi: '3.1.0', info: { version: '1.4.0' } })
  })

  it('lists every record with all(), in one request for this corpus', async () => {
    const { log, fetch } = loggingFetch()
    const logged = new RecordsClient({ baseUrl: `${server.url}/api/v1`, fetch })
    const records: Fact[] = []
    for await (const record of logged.all()) records.push(record)
    expect(records.map((r) => r.id).sort()).toEqual(fixture.map((r) => r.id).sort())
    expect(records).toEqual(expect.arrayContaining(fixture))
    expect(log).toEqual(['GET /api/v1/facts?po_live=1&limit=50&offset=0'])
  })
})

describe('redirects from the service', () => {
  it("follows the service's own 307 to the live read", async () => {
    const { log, fetch } = loggingFetch({ dropPoLiveOnce: true })
    const redirected = new RecordsClient({ baseUrl: `${server.url}/api/v1`, fetch })
    const page = await redirected.search({ q: 'priorité', kind: 'lesson' })
    expect(page.results.map((r) => r.id)).toEqual(['page-4eb2aa72a21336ea'])
    expect(log).toEqual([
      'GET /api/v1/facts?q=priorit%C3%A9&kind=lesson',
      'GET /api/v1/facts?q=priorit%C3%A9&kind=lesson&po_live=1',
    ])
  })

  it('refuses a 307 to another origin (a service whose public base URL is elsewhere)', async () => {
    const elsewhere = await startServer(
      loadConfig({ ...settings, PUBLIC_BASE_URL: 'https://records.example.org' }),
    )
    try {
      const { log, fetch } = loggingFetch({ dropPoLiveOnce: true })
      const redirected = new RecordsClient({ baseUrl: `${elsewhere.url}/api/v1`, fetch })
      await expect(redirected.catalogue()).rejects.toMatchObject({
        name: 'RedirectError',
        reason: 'cross_origin',
        location: 'https://records.example.org/api/v1/?po_live=1',
      })
      await expect(redirected.catalogue()).resolves.toMatchObject({ version: '1.4.0' })
      expect(log).toEqual(['GET /api/v1/', 'GET /api/v1/?po_live=1'])
    } finally {
      await elsewhere.close()
    }
  })
})
