/**
 * Issue 10.3: `POST http://evil.example/mcp` with a Host that has a port made the MCP adapter build
 * `http://127.0.0.1:PORThttp://evil.example/mcp` and answer 500 (with an error log line).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let guarded: TestServer
beforeAll(async () => {
  // ALLOWED_HOSTS=* turns the DNS-rebinding guard off, so that these Hosts reach the MCP adapter.
  ;[server, guarded] = await Promise.all([startTestServer({ ALLOWED_HOSTS: '*' }), startTestServer()])
})
afterAll(() => Promise.all([server.close(), guarded.close()]))

it.each([
  ['absolute-form target, Host with a port', 'http://evil.example/mcp', 'evil.example:81'],
  ['origin-form target, a Host that is no host name', '/mcp', 'not a host:x:y'],
  ['absolute-form target, empty Host', 'https://evil.example:9/mcp', ''],
])('%s: answered by MCP, never 500; refused by the guard when it is on', async (_name, target, host) => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  })
  const bytes = `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  const { responses } = await rawExchange(Number(new URL(server.url).port), bytes, { idleMs: 2_000 })
  expect(responses).toHaveLength(1)
  expect(responses[0]!.status).toBe(200)
  expect(responses[0]!.json.result.serverInfo.name).toBe('reference-records')
  const refused = await rawExchange(Number(new URL(guarded.url).port), bytes, { idleMs: 2_000 })
  expect(refused.responses).toHaveLength(1)
  expect(refused.responses[0]!.status).toBe(403)
  expect(refused.responses[0]!.json.error.message).toMatch(/^Header "Host"/)
})
