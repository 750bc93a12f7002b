/**
 * Issue 10.9: no `X-Content-Type-Options: nosniff`, and no restrictive policy for the JSON answers,
 * on any endpoint. Every answer now carries both, whatever its status and path.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let port: number
beforeAll(async () => {
  // a.example: the page of another site the preflight comes from, listed for the DNS-rebinding guard.
  server = await startTestServer({ ALLOWED_HOSTS: 'a.example' })
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close())

const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
const REQUESTS: [string, string][] = [
  ['200 search', 'GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['307', 'GET /api/v1/facts HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['304', 'GET /api/v1/openapi.json?po_live=1 HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: *\r\n\r\n'],
  ['400', 'GET /api/v1/facts?po_live=2 HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['404', 'GET /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['405', 'DELETE /api/v1/facts HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  [
    '204 preflight',
    'OPTIONS /api/v1/facts HTTP/1.1\r\nHost: localhost\r\nOrigin: https://a.example\r\nAccess-Control-Request-Method: GET\r\n\r\n',
  ],
  ['healthz', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['readyz', 'GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['metrics', 'GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  [
    'MCP',
    `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${mcpBody.length}\r\n\r\n${mcpBody}`,
  ],
  ['parser refusal', 'GET / HTTP/7.0\r\nHost: localhost\r\n\r\n'],
]

it.each(REQUESTS)('%s: nosniff and a restrictive Content-Security-Policy', async (_name, bytes) => {
  const { responses } = await rawExchange(port, bytes, { idleMs: 1_000 })
  expect(responses).toHaveLength(1)
  expect(responses[0]!.headers['x-content-type-options']).toBe('nosniff')
  expect(responses[0]!.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
})
