/**
 * Issue 10.1: the quota could be walked around. With the quota spent, other spellings of the same
 * addresses (percent-encoded unreserved characters, absolute-form targets, dot segments) were served
 * with 200 and no RateLimit field: the quota read one spelling, the router served another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const LIMIT = 3
const get = (target: string, method = 'GET') => `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`
const mcp = (target: string) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })
  return `POST ${target} HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`
}

/** Name, request, and the status its normal spelling gets when the quota allows it. */
const SPELLINGS: [string, string, number][] = [
  ['encoded unreserved in the root', get('/%61pi/v1/facts?po_live=1'), 200],
  ['encoded version', get('/api/%76%31/facts?po_live=1'), 200],
  ['everything encoded', get('/%61%70%69/v1/?po_live=1'), 200],
  ['encoded record id', get('/api/v1/facts/fait-%66ab1ae2fa3566c3d?po_live=1'), 200],
  ['absolute-form http', get('http://x/api/v1/facts?po_live=1'), 200],
  ['absolute-form https', get('https://x/api/v1/facts?po_live=1'), 200],
  ['dot segments', get('/x/../api/v1/./facts?po_live=1'), 200],
  ['encoded dot segments', get('/x/%2e%2e/api/v1/facts?po_live=1'), 200],
  ['HEAD', get('/api/v1/facts?po_live=1', 'HEAD'), 200],
  ['the redirect, encoded', get('/%61pi/v1/facts?q=x'), 307],
  ['MCP, encoded', mcp('/%6dcp'), 200],
  ['MCP, absolute-form', mcp('http://x/mcp'), 200],
]

describe('every spelling of a counted address is counted', () => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) })
    port = Number(new URL(server.url).port)
    // Spend the quota (the test server already read its OpenAPI document once).
    const statuses: number[] = []
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await rawExchange(port, get('/api/v1/?po_live=1'))).responses[0]!.status)
    expect(statuses).toEqual([200, 200, 429])
  })
  afterAll(() => server.close())

  it.each(SPELLINGS)('%s: refused with 429 once the quota is spent', async (_name, bytes) => {
    const { responses } = await rawExchange(port, bytes, { methods: [bytes.split(' ', 1)[0]!] })
    expect(responses).toHaveLength(1)
    expect(responses[0]!.status).toBe(429)
    expect(responses[0]!.headers['ratelimit']).toMatch(/^"default";r=0;t=\d+$/)
    expect(Number(responses[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  })
})

describe('every spelling is served as its normal spelling, and counted', () => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1000' })
    port = Number(new URL(server.url).port)
  })
  afterAll(() => server.close())

  it.each(SPELLINGS)('%s', async (_name, bytes, status) => {
    const { responses } = await rawExchange(port, bytes, { methods: [bytes.split(' ', 1)[0]!] })
    expect(responses).toHaveLength(1)
    expect(responses[0]!.status).toBe(status)
    expect(responses[0]!.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/)
  })

  it('reads a record by its encoded id like the plain one', async () => {
    const { responses } = await rawExchange(port, get('/api/v1/facts/fait-%66ab1ae2fa3566c3d?po_live=1'))
    expect(responses[0]!.json.id).toBe('fait-fab1ae2fa3566c3d')
  })
})
