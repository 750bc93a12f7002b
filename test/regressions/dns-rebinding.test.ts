/**
 * Issue 47.2: a service listening on 127.0.0.1 answered 200 to `Host: evil.example.com` with
 * `Origin: http://evil.example.com` (the MCP conformance suite's `dns-rebinding-protection`
 * scenario). A page whose domain resolves to 127.0.0.1 could then drive the local service from a
 * browser. Listening on a loopback address, the service now answers only for loopback names, the
 * public base URL's host and ALLOWED_HOSTS: anything else is a 403 in the JSON error body, counted
 * like any refusal of its path. Sent on real sockets, through the front door.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange, type RawResponse } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const LIMIT = 1_000
const EVIL = 'evil.example.com'

const request = (method: string, target: string, headers: string, version = '1.1') =>
  `${method} ${target} HTTP/${version}\r\n${headers}Connection: close\r\n\r\n`
/** The conformance scenario's request: an MCP initialize naming `host` in Host and Origin. */
const initialize = (host: string, origin = `http://${host}`) => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'conformance-dns-rebinding-test', version: '1.0.0' },
    },
  })
  return `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
}

async function send(server: TestServer, bytes: string): Promise<RawResponse> {
  const { responses } = await rawExchange(Number(new URL(server.url).port), bytes, {
    methods: [bytes.split(' ', 1)[0]!],
    // Each request closes its connection: the exchange ends on the close, the idle bound is for a slow machine.
    idleMs: 5_000,
  })
  expect(responses).toHaveLength(1)
  return responses[0]!
}

function expectRefused(res: RawResponse, header: 'Host' | 'Origin'): void {
  expect(res.status).toBe(403)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.headers['access-control-allow-origin']).toBe('*')
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  const message: string = res.json.error.message
  expect(message).toMatch(new RegExp(`^Header "${header}": `))
  expect(message).toContain('ALLOWED_HOSTS')
}

describe('listening on 127.0.0.1, without settings', () => {
  let server: TestServer
  let local: string
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) })
    local = new URL(server.url).host
  })
  afterAll(() => server.close())

  it('refuses the conformance scenario: an MCP initialize with Host and Origin of another host', async () => {
    const res = await send(server, initialize(EVIL))
    expectRefused(res, 'Host')
    // In the MCP endpoint's own error body, as its other refusals.
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: expect.any(Number) } })
    expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/)
  })

  it.each([
    ['the listening address', () => local],
    ['localhost', () => `localhost:${new URL(server.url).port}`],
    ['[::1]', () => '[::1]:1'],
  ])('accepts the same with %s', async (_name, host) => {
    const res = await send(server, initialize(host()))
    expect(res.status).toBe(200)
    expect(res.json.result.serverInfo.name).toBe('reference-records')
  })

  it('refuses a loopback Host with an Origin of another site', async () => {
    expectRefused(await send(server, initialize(local, `http://${EVIL}`)), 'Origin')
    expectRefused(await send(server, initialize(local, 'null')), 'Origin')
  })

  it('refuses an API request, counted like any refusal of the API', async () => {
    const res = await send(server, request('GET', '/api/v1/?po_live=1', `Host: ${EVIL}\r\n`))
    expectRefused(res, 'Host')
    expect(res.json).toEqual({ error: { code: 'invalid_parameter', message: expect.any(String) } })
    expect(res.headers['ratelimit-policy']).toBe(`"default";q=${LIMIT};w=60`)
    expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/)
  })

  it.each([
    ['a counted page', '/recherche?q=vitesse', true],
    ['a record page', '/fiches/fait-fab1ae2fa3566c3d', true],
    ['the home page', '/', false],
    ['an unknown page', '/nope', false],
    ['an operational endpoint', '/healthz', false],
    ['a feed', '/sitemap.xml', true],
  ])('refuses %s in the JSON error body, not a page', async (_name, target, counted) => {
    const res = await send(server, request('GET', target, `Host: ${EVIL}:8080\r\n`))
    expectRefused(res, 'Host')
    expect(res.headers['ratelimit'] !== undefined).toBe(counted)
  })

  it('refuses HEAD without a body', async () => {
    const res = await send(server, request('HEAD', '/api/v1/?po_live=1', `Host: ${EVIL}\r\n`))
    expect(res.status).toBe(403)
    expect(res.body.length).toBe(0)
  })

  it('refuses the preflight of a page of another site, uncounted; answers a local one', async () => {
    const preflight = (origin: string) =>
      request(
        'OPTIONS',
        '/mcp',
        `Host: ${local}\r\nOrigin: ${origin}\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n`,
      )
    const refused = await send(server, preflight(`https://${EVIL}`))
    expect(refused.status).toBe(403)
    expect(refused.headers['ratelimit']).toBeUndefined()
    const answered = await send(server, preflight('http://localhost:5173'))
    expect(answered.status).toBe(204)
  })

  it('serves an HTTP/1.0 request without Host: it names no other host', async () => {
    const res = await send(server, request('GET', '/api/v1/?po_live=1', '', '1.0'))
    expect(res.status).toBe(200)
  })
})

describe('with PUBLIC_BASE_URL and ALLOWED_HOSTS', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      PUBLIC_BASE_URL: 'https://records.example.org',
      ALLOWED_HOSTS: 'records.internal, 192.0.2.10',
    })
  })
  afterAll(() => server.close())

  it.each(['records.example.org', 'records.example.org:443', 'records.internal:8080', '192.0.2.10'])(
    'accepts Host: %s',
    async (host) => {
      const res = await send(server, request('GET', '/api/v1/?po_live=1', `Host: ${host}\r\n`))
      expect(res.status).toBe(200)
    },
  )

  it('accepts any page on the public host (the API is public there), and the public origin locally', async () => {
    const viaProxy = `Host: records.example.org\r\nOrigin: https://app.example\r\n`
    expect((await send(server, request('GET', '/api/v1/?po_live=1', viaProxy))).status).toBe(200)
    const local = `Host: localhost\r\nOrigin: https://records.example.org\r\n`
    expect((await send(server, request('GET', '/api/v1/?po_live=1', local))).status).toBe(200)
  })

  it('still refuses another host', async () => {
    const res = await send(server, request('GET', '/api/v1/?po_live=1', `Host: ${EVIL}\r\n`))
    expectRefused(res, 'Host')
    expect(res.json.error.message).toContain('records.example.org, records.internal, 192.0.2.10')
  })
})

describe('ALLOWED_HOSTS=*', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ ALLOWED_HOSTS: '*' })
  })
  afterAll(() => server.close())

  it('turns the guard off', async () => {
    const res = await send(server, initialize(EVIL))
    expect(res.status).toBe(200)
  })
})
