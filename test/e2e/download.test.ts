/** GET /api/v1/facts.ndjson: the whole snapshot in one counted request, plain or gzip, with validators. */
import { request } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** A GET that leaves the body as sent (fetch would decompress it). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(server.url + path, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

const PATH = '/api/v1/facts.ndjson'

describe('GET /api/v1/facts.ndjson (downloadFacts)', () => {
  it('is linked from the catalogue and sends every record, in listing order, byte-identical to the record read alone', async () => {
    const catalogue = await server.get('/api/v1/?po_live=1')
    expect(catalogue.body.links.download).toBe(PATH)
    const res = await server.get(PATH) // no po_live: not redirected; checked against the OpenAPI document
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const plain = await rawGet(PATH) // fetch asks for gzip and decompresses: see the bytes as sent
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers['content-length']).toBe(String(plain.body.length))
    expect(plain.body.toString()).toBe(res.text)
    expect(res.headers.get('vary')).toBe('accept-encoding')
    expect(res.headers.get('last-modified')).toBe(new Date(catalogue.body.updated_at).toUTCString())
    const lines = res.text.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(catalogue.body.records.total)
    const listing = await server.get('/api/v1/facts?limit=50&po_live=1')
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(listing.body.results.map((r: { id: string }) => r.id))
    const one = await server.raw(`/api/v1/facts/${JSON.parse(lines[4]!).id}?po_live=1`)
    expect(lines[4]).toBe(one.text)
  })

  it('sends gzip when accepted, compressed once, with its own strong ETag; both revalidate to 304', async () => {
    const plain = await rawGet(PATH)
    const gzip = await rawGet(PATH, { 'accept-encoding': 'gzip, deflate, br' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length)
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true)
    expect(gzip.headers.etag).toMatch(/^"[\w-]{27}"$/)
    expect(gzip.headers.etag).not.toBe(plain.headers.etag)
    const again = await rawGet(PATH, { 'accept-encoding': 'gzip' })
    expect(again.body.equals(gzip.body)).toBe(true)
    expect(again.headers.etag).toBe(gzip.headers.etag)
    expect(
      (await rawGet(PATH, { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) })).status,
    ).toBe(304)
    expect((await rawGet(PATH, { 'if-none-match': String(plain.headers.etag) })).status).toBe(304)
    expect((await rawGet(PATH, { 'if-none-match': String(gzip.headers.etag) })).status).toBe(200) // another representation
    expect((await rawGet(PATH, { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined()
  })
})

describe('revalidation and refusals', () => {
  it('answers If-Modified-Since, counts one request per download, and refuses other parameters and methods', async () => {
    const first = await server.get(PATH)
    const remaining = Number(/r=(\d+)/.exec(first.headers.get('ratelimit')!)![1])
    const lastModified = first.headers.get('last-modified')!
    const notModified = await server.get(PATH, { headers: { 'if-modified-since': lastModified } })
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(notModified.headers.get('ratelimit')).toMatch(new RegExp(`r=${remaining - 1};`))
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString()
    expect((await server.get(PATH, { headers: { 'if-modified-since': earlier } })).status).toBe(200)
    const bad = await server.get(`${PATH}?kind=fact`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe(
      'Unknown query parameter "kind"; the only parameter allowed here is po_live',
    )
    const post = await server.raw(PATH, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })
})
