/** The request quota over real sockets, with the in-memory store: 120 per rolling minute per client address, and what it counts. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeAgents, httpGet } from '../support/http-client.js'
import { ipv6LoopbackAvailable, reportMissing } from '../support/services.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
beforeAll(async () => {
  // The pages of other sites the CORS tests call from, listed for the DNS-rebinding guard.
  server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '120', ALLOWED_HOSTS: 'reuser.example,x.example' })
})
afterAll(async () => {
  closeAgents()
  await server.close()
})
const url = (path: string) => server.url + path

describe('quota on the API', () => {
  it('accepts 120 requests of any kind from one address, refuses the 121st with 429 and an exact Retry-After', async () => {
    const from = '127.0.0.2'
    const paths = [
      '/api/v1/facts',
      '/api/v1/facts?po_live=1',
      '/api/v1/facts?limit=0&po_live=1',
      '/api/v1/nope',
      '/api/v1/?po_live=1',
    ]
    const statuses: number[] = []
    // `t` counts down from 60 as the first counted request ages (exact values: the store contract's
    // fake clock). Here time is real: each `t` must lie between 60 and what the elapsed time allows.
    const started = Date.now()
    const oldestAllows = () => Math.ceil((60_000 - (Date.now() - started)) / 1000)
    let previousT = 60
    for (let i = 0; i < 120; i++) {
      const res = await httpGet(url(paths[i % paths.length]!), { from })
      const lowest = oldestAllows()
      statuses.push(res.status)
      expect(res.headers['ratelimit-policy']).toBe('"default";q=120;w=60')
      const field = /^"default";r=(\d+);t=(\d+)$/.exec(String(res.headers['ratelimit']))
      expect(field, String(res.headers['ratelimit'])).not.toBeNull()
      expect(Number(field![1])).toBe(119 - i)
      const t = Number(field![2])
      expect(t).toBeLessThanOrEqual(previousT)
      expect(t).toBeGreaterThanOrEqual(lowest)
      previousT = t
    }
    expect(statuses).toEqual(
      Array.from({ length: 120 }, (_, i) => [307, 200, 400, 404, 200][i % paths.length]),
    )
    const refused = await httpGet(url('/api/v1/facts?po_live=1'), {
      from,
      headers: { origin: 'https://reuser.example' },
    })
    const lowest = oldestAllows()
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeLessThanOrEqual(previousT) // the first request leaves the window no later than it said
    expect(retryAfter).toBeGreaterThanOrEqual(lowest)
    expect(refused.headers['ratelimit']).toBe(`"default";r=0;t=${retryAfter}`)
    expect(refused.headers['access-control-allow-origin']).toBe('*')
    expect(String(refused.headers['access-control-expose-headers'])).toMatch(/Retry-After/)
    const body = JSON.parse(refused.body)
    expect(body).toEqual({
      error: {
        code: 'rate_limited',
        message: `Too many requests: at most 120 per 60 s per client, shared by the API and the MCP server; retry in ${retryAfter} s`,
      },
    })
    server.validator.check({
      status: 429,
      headers: new Headers(refused.headers as Record<string, string>),
      text: refused.body,
      body,
      path: '/api/v1/facts',
    })
    // 307s and HEAD count too
    expect((await httpGet(url('/api/v1/facts'), { from })).status).toBe(429)
    expect((await httpGet(url('/api/v1/facts'), { from, method: 'HEAD' })).status).toBe(429)
  })

  it('does not count CORS preflights or operational endpoints', async () => {
    const from = '127.0.0.3'
    for (let i = 0; i < 130; i++) {
      const res = await httpGet(url(['/healthz', '/readyz', '/metrics', '/docs'][i % 4]!), { from })
      expect(res.status).toBe(200)
      expect(res.headers['ratelimit']).toBeUndefined()
    }
    const preflight = await httpGet(url('/api/v1/facts'), {
      from,
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect((await httpGet(url('/api/v1/facts?po_live=1'), { from })).headers['ratelimit']).toBe(
      '"default";r=119;t=60',
    )
  })

  it('does not count a refused method (405): it reads nothing', async () => {
    const from = '127.0.0.8'
    const started = Date.now()
    expect((await httpGet(url('/api/v1/facts?po_live=1'), { from })).headers['ratelimit']).toBe(
      '"default";r=119;t=60',
    )
    for (const [method, path] of [
      ['GET', '/mcp'],
      ['DELETE', '/mcp'],
      ['PUT', '/mcp'],
      ['DELETE', '/api/v1/facts'],
      ['POST', '/api/v1/facts?po_live=1'],
    ] as const) {
      const refused = await httpGet(url(path), {
        from,
        method,
        headers: { accept: 'application/json, text/event-stream' },
      })
      expect(refused.status, `${method} ${path}`).toBe(405)
      expect(refused.headers['ratelimit'], `${method} ${path}`).toBeUndefined()
    }
    // Still one request spent: the five refusals moved nothing. `t` counts down from the first request,
    // which under load may be a second or more ago (issue 31): bounded by the time that passed.
    const after = await httpGet(url('/api/v1/facts?po_live=1'), { from })
    const field = /^"default";r=(\d+);t=(\d+)$/.exec(String(after.headers['ratelimit']))
    expect(Number(field?.[1])).toBe(118)
    expect(Number(field?.[2])).toBeLessThanOrEqual(60)
    expect(Number(field?.[2])).toBeGreaterThanOrEqual(Math.ceil((60_000 - (Date.now() - started)) / 1000))
  })

  it('counts an MCP session as docs/api.md says: one per POST, the 405 of its GET /mcp free', async () => {
    const remaining = async () =>
      Number(/r=(\d+)/.exec((await fetch(url('/api/v1/?po_live=1'))).headers.get('ratelimit')!)![1])
    const cost = async (
      connect: () => Promise<{
        callTool(p: object): Promise<unknown>
        listTools(): Promise<unknown>
        close(): Promise<void>
      }>,
    ) => {
      const before = await remaining()
      const client = await connect()
      const handshake = before - (await remaining()) - 1
      await client.listTools()
      await client.callTool({ name: 'get_catalogue', arguments: {} })
      const session = before - (await remaining()) - 2 // our own two reads of the count
      await client.close()
      return { handshake, session }
    }
    // 2025 era: initialize + notifications/initialized (its GET /mcp is refused with 405, not counted), then tools/list and tools/call.
    expect(
      await cost(async () => {
        const client = new Client({ name: 'test', version: '1' })
        await client.connect(new StreamableHTTPClientTransport(new URL(url('/mcp'))))
        return client
      }),
    ).toEqual({ handshake: 2, session: 4 })
    // 2026-07-28 era: server/discover, then tools/list and tools/call.
    expect(
      await cost(async () => {
        const client = new Client(
          { name: 'test', version: '1' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        )
        await client.connect(new StreamableHTTPClientTransport(new URL(url('/mcp'))))
        return client
      }),
    ).toEqual({ handshake: 1, session: 3 })
  })

  it('gives distinct addresses distinct budgets, and ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const from = '127.0.0.4'
    for (let i = 0; i < 120; i++) await httpGet(url('/api/v1/facts?po_live=1'), { from })
    expect((await httpGet(url('/api/v1/facts?po_live=1'), { from })).status).toBe(429)
    const spoofed = await httpGet(url('/api/v1/facts?po_live=1'), {
      from,
      headers: { 'x-forwarded-for': '198.51.100.9' },
    })
    expect(spoofed.status).toBe(429)
    expect((await httpGet(url('/api/v1/facts?po_live=1'), { from: '127.0.0.5' })).status).toBe(200)
  })

  it('publishes the limit in the catalogue', async () => {
    const catalogue = JSON.parse((await httpGet(url('/api/v1/?po_live=1'), { from: '127.0.0.6' })).body)
    expect(catalogue.limits.requests_per_minute).toBe(120)
  })

  it('counts per IPv6 /64', async (ctx) => {
    if (!(await ipv6LoopbackAvailable())) {
      reportMissing('the IPv6 loopback', '::1 is not available here')
      return ctx.skip()
    }
    // Where ::1 exists, any failure to start is the test's failure, not a reason to skip.
    const v6 = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3', HOST: '::1' })
    try {
      // startTestServer already spent one request (it reads the OpenAPI document from ::1)
      for (let i = 0; i < 2; i++)
        expect((await httpGet(`${v6.url}/api/v1/facts?po_live=1`, { from: '::1' })).status).toBe(200)
      expect((await httpGet(`${v6.url}/api/v1/facts?po_live=1`, { from: '::1' })).status).toBe(429)
    } finally {
      await v6.close()
    }
  })
})

describe('quota behind trusted proxies', () => {
  it('keys by the right-most address the trusted proxies did not add', async () => {
    // startTestServer reads the OpenAPI document from 127.0.0.1 itself, which is keyed as 127.0.0.1 (no X-Forwarded-For)
    const proxied = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' })
    try {
      const get = (xff: string, from = '127.0.0.1') =>
        httpGet(`${proxied.url}/api/v1/facts?po_live=1`, { from, headers: { 'x-forwarded-for': xff } })
      // the client made up the left-most entry; the proxy appended the address it saw (203.0.113.5)
      expect((await get('6.6.6.6, 203.0.113.5')).status).toBe(200)
      expect((await get('7.7.7.7, 203.0.113.5')).status).toBe(200)
      expect((await get('203.0.113.5')).status).toBe(200)
      expect((await get('8.8.8.8, 203.0.113.5')).status).toBe(429)
      expect((await get('203.0.113.6')).status).toBe(200) // another client behind the proxy
      // a connection from an untrusted address is keyed by itself, whatever it claims
      for (let i = 0; i < 3; i++) expect((await get('203.0.113.99', '127.0.0.7')).status).toBe(200)
      expect((await get('203.0.113.100', '127.0.0.7')).status).toBe(429)
    } finally {
      await proxied.close()
    }
  })
})

describe('quota disabled', () => {
  it('sends no rate-limit fields and says 0 in the catalogue', async () => {
    const open = await startTestServer({ RATE_LIMIT_PER_MINUTE: '0' })
    try {
      const res = await open.get('/api/v1/?po_live=1')
      expect(res.headers.get('ratelimit')).toBeNull()
      expect(res.body.limits.requests_per_minute).toBe(0)
    } finally {
      await open.close()
    }
  })
})
