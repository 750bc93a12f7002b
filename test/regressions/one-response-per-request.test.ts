/**
 * Issue 10.4: a GET with a malformed chunked body got its 200, then a second, unsolicited 400 on
 * the same connection. Behind a proxy that reuses connections, that shifts every later answer to the
 * wrong client. Each request gets exactly one response, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let port: number
beforeAll(async () => {
  server = await startTestServer()
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close())

const GET = 'GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n'

it('answers a GET whose chunked body is malformed once, then closes the connection', async () => {
  const bytes =
    'GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n'
  const { responses, closedByServer, leftover } = await rawExchange(port, bytes)
  expect(responses.map((r) => r.status)).toEqual([200])
  expect(closedByServer).toBe(true)
  expect(leftover).toHaveLength(0)
})

it('answers a POST /mcp whose chunked body is malformed once, with a JSON-RPC error, then closes (issue 32)', async () => {
  const head =
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    'Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n'
  for (const body of [
    'zz\r\nnot a chunk\r\n',
    '5\r\n{"jso\r\nXYZ\r\n',
    '2\r\n{}\r\n0\r\nbad trailer\u0001\r\n\r\n',
  ]) {
    // Up to 2 s for the answer on a busy machine: a connection given up on would not be answered at all.
    const { responses, closedByServer } = await rawExchange(port, head + body, { idleMs: 2_000 })
    expect(
      responses.map((r) => r.status),
      body,
    ).toEqual([400])
    expect(responses[0]!.json, body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32_000 } })
    // Answered when the parser fails, not when the connection is given up on (which answers nothing).
    expect(closedByServer).toBe(true)
  }
})

it('answers a good request and a malformed one behind it with one response each, in order', async () => {
  const { responses, closedByServer } = await rawExchange(port, `${GET}GARBAGE\u0001 / HTTP/1.1\r\n\r\n`)
  expect(responses.map((r) => r.status)).toEqual([200, 400])
  expect(responses[1]!.json).toEqual({
    error: { code: 'invalid_parameter', message: 'Malformed HTTP request' },
  })
  expect(responses[1]!.headers['access-control-allow-origin']).toBe('*')
  expect(closedByServer).toBe(true)
})

it('answers ten pipelined requests with ten responses, in order', async () => {
  const targets = Array.from({ length: 10 }, (_, i) => `/api/v1/facts?po_live=1&limit=${i + 1}`)
  const { responses } = await rawExchange(
    port,
    targets.map((t) => `GET ${t} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join(''),
  )
  expect(responses.map((r) => r.json.limit)).toEqual(targets.map((_, i) => i + 1))
})

it('answers a request whose Content-Length exceeds its body once the body never comes, without a second answer', async () => {
  const { responses } = await rawExchange(
    port,
    'POST /api/v1/facts HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nabc',
    { endAfterWrite: true },
  )
  expect(responses.map((r) => r.status)).toEqual([405])
})

it('refuses request smuggling (Content-Length with Transfer-Encoding) with one 400', async () => {
  const bytes = `POST /api/v1/facts HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${GET}`
  const { responses, closedByServer } = await rawExchange(port, bytes)
  expect(responses.map((r) => r.status)).toEqual([400])
  expect(closedByServer).toBe(true)
})
