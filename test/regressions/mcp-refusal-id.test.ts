/**
 * Issue 15.20: a POST /mcp refused before the MCP SDK saw it (the quota's 429, and the other refusals
 * decided in front of the SDK) answered a JSON-RPC error with `id: null` although the request had an
 * id, so a client could not tell which of its requests was refused. The refusal now reads the
 * request's body (bounded in size and time) and echoes its id; the status and Retry-After stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange, type RawResponse } from '../support/raw-http.js'
import { DEFAULT_TIMEOUTS } from '../../src/http/server.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let port: number
beforeAll(async () => {
  // The start reads the OpenAPI document once: one request spent, none left.
  server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1' })
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close())

const post = (body: string, head = 'Host: localhost\r\n') =>
  `POST /mcp HTTP/1.1\r\n${head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

function expectRefusal(res: RawResponse, status: number) {
  expect(res.status).toBe(status)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
}

describe('a refused POST /mcp echoes the JSON-RPC id', () => {
  it.each([
    ['a number', 7],
    ['a string', 'req-7'],
  ])('429 for a request whose id is %s', async (_name, id) => {
    const { responses } = await rawExchange(
      port,
      post(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_catalogue', arguments: {} },
        }),
      ),
    )
    expectRefusal(responses[0]!, 429)
    expect(responses[0]!.json).toMatchObject({
      jsonrpc: '2.0',
      id,
      error: { code: -32000, data: { status: 429, code: 'rate_limited' } },
    })
    expect(responses[0]!.json.error.message).toMatch(/retry in \d+ s$/)
  })

  it('answers a notification, a body that is not JSON-RPC or not JSON with id null', async () => {
    for (const body of [
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ id: { not: 'an id' } }),
      '{"jsonrpc": "2.0", "id": 1,',
      '',
    ]) {
      const { responses } = await rawExchange(port, post(body))
      expectRefusal(responses[0]!, 429)
      expect(responses[0]!.json, body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { data: { code: 'rate_limited' } },
      })
    }
  })

  it('answers a batch with one error per request in it (JSON-RPC 2.0, "Batch"), and a batch of notifications with id null', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'two', method: 'ping' },
    ]
    const { responses } = await rawExchange(port, post(JSON.stringify(batch)))
    expectRefusal(responses[0]!, 429)
    expect(responses[0]!.json.map((e: { id: unknown }) => e.id)).toEqual([1, 'two'])
    const notifications = await rawExchange(port, post(JSON.stringify([batch[1]])))
    expect(notifications.responses[0]!.json).toMatchObject({
      id: null,
      error: { data: { code: 'rate_limited' } },
    })
  })

  it('keeps the connection usable: the next request on it is answered', async () => {
    const request = post(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }))
    const { responses } = await rawExchange(port, [
      request,
      post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' })),
    ])
    expect(responses.map((r) => [r.status, r.json.id])).toEqual([
      [429, 8],
      [429, 9],
    ])
  })

  it('does not wait long for a body that does not come: id null after about a second', async () => {
    const started = Date.now()
    const head = `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":"2.0","id":`
    const { responses } = await rawExchange(port, head, { idleMs: 2_000 })
    expectRefusal(responses[0]!, 429)
    expect(responses[0]!.json.id).toBeNull()
    // After about a second, not at the request timeout (15 s): half of it is room for a busy machine.
    expect(Date.now() - started).toBeLessThan(DEFAULT_TIMEOUTS.requestMs / 2)
  })

  it('reads no id from a body over the size limit: id null', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 10,
      method: 'ping',
      params: { pad: 'x'.repeat(70 * 1024) },
    })
    const { responses } = await rawExchange(port, post(big))
    expectRefusal(responses[0]!, 429)
    expect(responses[0]!.json.id).toBeNull()
  })

  it('echoes the id on refusals decided before the framework too (no Host: 400)', async () => {
    const { responses } = await rawExchange(
      port,
      post(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping' }), ''),
    )
    expectRefusal(responses[0]!, 400)
    expect(responses[0]!.json).toMatchObject({
      jsonrpc: '2.0',
      id: 11,
      error: { message: 'Missing Host header (required by HTTP/1.1)' },
    })
  })

  it('answers a refused method without a body with id null (GET /mcp: 405, not counted)', async () => {
    const { responses } = await rawExchange(
      port,
      'GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n',
    )
    expect(responses[0]!.status).toBe(405)
    expect(responses[0]!.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { data: { status: 405, code: 'method_not_allowed' } },
    })
  })
})
