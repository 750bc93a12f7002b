/**
 * Issue 43.1: a raw `#` in the request line skipped the quota. Once it was spent, `GET /api/v1#?po_live=1`
 * still answered the catalogue and `GET /recherche#?q=vitesse` a results page, without rate-limit
 * fields; so did the feeds and the discovery documents. The quota read the path with the `#` in it,
 * the router cut the path at the `#`. A target holds no fragment (RFC 9112 §3.2): one that does is
 * refused with 400 in the API's terms, whatever its path, and counted. Sent on real sockets,
 * through the front door.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange, type RawResponse } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const LIMIT = 3
const request = (method: string, target: string, extra = '') =>
  `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`
const mcp = (target: string) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })
  return request(
    'POST',
    target,
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  ).slice(0, -2)
}

/** The addresses of the issue, each with a `#`, and other spellings of the same fault. */
const TARGETS: [string, string][] = [
  ['the catalogue', request('GET', '/api/v1#?po_live=1')],
  ['the search page', request('GET', '/recherche#?q=vitesse')],
  ['llms.txt', request('GET', '/llms.txt#')],
  ['server.json', request('GET', '/server.json#')],
  ['the server card', request('GET', '/.well-known/mcp/server-card.json#')],
  ['the sitemap', request('GET', '/sitemap.xml#x')],
  ['the DCAT description', request('GET', '/catalog.jsonld#')],
  ['the Atom feed', request('GET', '/changes.atom#')],
  ['a search, # after the query', request('GET', '/api/v1/facts?po_live=1&q=vitesse#x')],
  ['a record, # in the query', request('GET', '/api/v1/facts/fait-fab1ae2fa3566c3d?po#_live=1')],
  ['the download', request('GET', '/api/v1/facts.ndjson#')],
  ['the change feed', request('GET', '/api/v1/changes#?po_live=1')],
  ['a record page', request('GET', '/fiches/fait-fab1ae2fa3566c3d#top')],
  ['an encoded path', request('GET', '/%61pi/v1/#?po_live=1')],
  ['absolute-form, # in the path', request('GET', 'http://x/api/v1#?po_live=1')],
  ['absolute-form, # right after the path', request('GET', 'https://x:443/#')],
  ['an encoded # before a raw one', request('GET', '/api/v1/facts?q=%23#?po_live=1')],
  ['a lone #', request('GET', '/#')],
  ['raw UTF-8 before the # (read again, encoded)', request('GET', '/recherche?q=priorité#x')],
  ['raw UTF-8 after the #', request('GET', '/api/v1/#é?po_live=1')],
  ['HEAD', request('HEAD', '/api/v1#?po_live=1')],
  [
    'OPTIONS',
    request('OPTIONS', '/api/v1/#', 'Origin: http://localhost\r\nAccess-Control-Request-Method: GET\r\n'),
  ],
  ['MCP', mcp('/mcp#')],
  ['MCP, # in the query', mcp('/mcp?#')],
  ['an operational endpoint', request('GET', '/healthz#')],
  ['a refused method', request('DELETE', '/api/v1/#')],
]

const methodOf = (bytes: string) => bytes.split(' ', 1)[0]!

async function send(port: number, bytes: string): Promise<RawResponse> {
  // Each request closes its connection: the exchange ends on the close, the idle bound is for a slow machine.
  const { responses } = await rawExchange(port, bytes, { methods: [methodOf(bytes)], idleMs: 5_000 })
  expect(responses).toHaveLength(1)
  return responses[0]!
}

/** What every answer to a target with a fragment carries: the API's CORS and security fields, JSON, the quota's fields. */
function expectApiRefusal(res: RawResponse, status: number, code: string, method: string): void {
  expect(res.status).toBe(status)
  expect(res.headers['access-control-allow-origin']).toBe('*')
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.headers['ratelimit-policy']).toBe(`"default";q=${LIMIT_OF[status]};w=60`)
  expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/)
  expect(res.headers['x-request-id']).toBeTruthy()
  if (method === 'HEAD') return void expect(res.body.length).toBe(0)
  expect(res.json).toEqual({ error: { code, message: expect.any(String) } })
}
const LIMIT_OF: Record<number, number> = { 400: 1000, 429: LIMIT }

describe('a target holding a fragment, once the quota is spent', () => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) })
    port = Number(new URL(server.url).port)
    // Spend the quota (the test server already read its OpenAPI document once).
    const statuses: number[] = []
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await send(port, request('GET', '/api/v1/?po_live=1'))).status)
    expect(statuses).toEqual([200, 200, 429])
  })
  afterAll(() => server.close())

  it.each(TARGETS)('%s: 429, with the quota fields', async (_name, bytes) => {
    const res = await send(port, bytes)
    expectApiRefusal(res, 429, 'rate_limited', methodOf(bytes))
    expect(res.headers['ratelimit']).toMatch(/^"default";r=0;t=\d+$/)
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  })
})

describe('a target holding a fragment, under the quota', () => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1000' })
    port = Number(new URL(server.url).port)
  })
  afterAll(() => server.close())

  it.each(TARGETS)('%s: 400 invalid_parameter in the API terms, counted', async (_name, bytes) => {
    const res = await send(port, bytes)
    expectApiRefusal(res, 400, 'invalid_parameter', methodOf(bytes))
    if (methodOf(bytes) !== 'HEAD') expect(res.json.error.message).toMatch(/fragment \("#"\)/)
  })

  it('counts each one: the remaining quota goes down by one per request', async () => {
    const remaining = async (bytes: string) =>
      Number(/;r=(\d+);/.exec((await send(port, bytes)).headers['ratelimit']!)![1])
    const before = await remaining(request('GET', '/api/v1/?po_live=1'))
    for (const [, bytes] of TARGETS.slice(0, 5)) await send(port, bytes)
    expect(await remaining(request('GET', '/api/v1/?po_live=1'))).toBe(before - 6)
  })

  it('still serves the same address without the fragment', async () => {
    const res = await send(port, request('GET', '/llms.txt'))
    expect(res.status).toBe(200)
    expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/)
  })

  it('reads an encoded # (%23) as data, not as a fragment', async () => {
    const res = await send(port, request('GET', '/api/v1/facts?q=%23&po_live=1'))
    expect(res.status).toBe(200)
  })
})
