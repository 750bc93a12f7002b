/**
 * Issue 10.5: some errors left without the contract's JSON body or CORS: no Host header, an unmet
 * Expect, the router's own errors (bad percent-encoding in the path, an id over 1 000 characters,
 * which echoed the whole raw URL back); CONNECT got no answer at all; PROPFIND, SEARCH, PURGE and
 * M-SEARCH on API paths got 404 where the contract says 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange, type RawResponse } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let port: number
beforeAll(async () => {
  server = await startTestServer()
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close())

function expectErrorBody(res: RawResponse, status: number, code: string, message: RegExp | string) {
  expect(res.status).toBe(status)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.headers['access-control-allow-origin']).toBe('*')
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['cache-control']).toBe('no-store')
  expect(Object.keys(res.json)).toEqual(['error'])
  expect(res.json.error.code).toBe(code)
  if (typeof message === 'string') expect(res.json.error.message).toBe(message)
  else expect(res.json.error.message).toMatch(message)
}

it('a HTTP/1.1 request without Host: 400', async () => {
  const { responses } = await rawExchange(port, 'GET /api/v1/?po_live=1 HTTP/1.1\r\n\r\n')
  expectErrorBody(responses[0]!, 400, 'invalid_parameter', 'Missing Host header (required by HTTP/1.1)')
})

it('a HTTP/1.0 request without Host is served', async () => {
  const { responses } = await rawExchange(port, 'GET /api/v1/?po_live=1 HTTP/1.0\r\n\r\n')
  expect(responses[0]!.status).toBe(200)
})

// RFC 9112 §2.2: a server SHOULD ignore empty lines before a request line. Anything else in front of
// it is a malformed request, answered with the contract's body like every other refusal.
it.each(['\r\n', '\r\n\r\n', '\n', 'GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n\r\n\r\n'])(
  'leading empty lines (%j) are ignored: the request is served',
  async (before) => {
    const { responses } = await rawExchange(
      port,
      `${before}GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    )
    expect(responses.map((r) => r.status)).toEqual(before.startsWith('GET') ? [200, 200] : [200])
  },
)

it.each([' \r\n', '\r\n \r\n'])(
  'a blank but not empty line (%j) before the request: 400 with the body',
  async (before) => {
    const { responses } = await rawExchange(
      port,
      `${before}GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    )
    expectErrorBody(responses[0]!, 400, 'invalid_parameter', 'Malformed HTTP request')
  },
)

it('an unmet expectation: 417', async () => {
  const { responses } = await rawExchange(
    port,
    'GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\n\r\n',
  )
  expectErrorBody(
    responses[0]!,
    417,
    'invalid_parameter',
    'Expectation "foo" is not supported (only 100-continue is)',
  )
})

it('CONNECT: 405, then the connection closes', async () => {
  const { responses, closedByServer } = await rawExchange(
    port,
    'CONNECT records.test:443 HTTP/1.1\r\nHost: records.test:443\r\n\r\n',
  )
  expectErrorBody(responses[0]!, 405, 'method_not_allowed', /^Method CONNECT is not allowed/)
  expect(responses[0]!.headers['allow']).toBe('GET, HEAD, OPTIONS')
  expect(closedByServer).toBe(true)
})

describe.each(['PROPFIND', 'SEARCH', 'PURGE', 'M-SEARCH', 'LOCK', 'REPORT', 'QUERY'])('%s', (method) => {
  it.each([
    '/api/v1/',
    '/api/v1/facts',
    '/api/v1/facts/fait-fab1ae2fa3566c3d',
    '/api/v1/openapi.json',
    '/healthz',
  ])('on %s: 405 with Allow', async (path) => {
    const { responses } = await rawExchange(port, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    expectErrorBody(
      responses[0]!,
      405,
      'method_not_allowed',
      `Method ${method} is not allowed on ${path === '/api/v1/facts/fait-fab1ae2fa3566c3d' ? '/api/v1/facts/:id' : path} (allowed: GET, HEAD, OPTIONS)`,
    )
    expect(responses[0]!.headers['allow']).toBe('GET, HEAD, OPTIONS')
  })
})

it('malformed percent-encoding in the path: 400 naming it', async () => {
  const { responses } = await rawExchange(
    port,
    'GET /api/v1/facts/%ZZ?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n',
  )
  expectErrorBody(
    responses[0]!,
    400,
    'invalid_parameter',
    'The path is not validly percent-encoded: /api/v1/facts/%ZZ',
  )
})

it('an id over 1 000 characters: 400 saying what an id is, without echoing it whole', async () => {
  const id = 'a'.repeat(7_000)
  const { responses } = await rawExchange(
    port,
    `GET /api/v1/facts/${id}?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`,
  )
  expectErrorBody(
    responses[0]!,
    400,
    'invalid_parameter',
    /^Path parameter "id" must be a prefix .* \(got "a{60}…"\)$/,
  )
  expect(responses[0]!.body.length).toBeLessThan(400)
})

it('a target that is not a path: 400', async () => {
  const { responses } = await rawExchange(port, 'GET * HTTP/1.1\r\nHost: localhost\r\n\r\n')
  expectErrorBody(
    responses[0]!,
    400,
    'invalid_parameter',
    'The request target must be a path, such as /api/v1/',
  )
})

it('a request line the parser cannot read: 400 with the body, and the connection closes', async () => {
  const { responses, closedByServer } = await rawExchange(
    port,
    'GET /api/v1/ HTTP/9.9\r\nHost: localhost\r\n\r\n',
  )
  expectErrorBody(responses[0]!, 400, 'invalid_parameter', 'Malformed HTTP request')
  expect(closedByServer).toBe(true)
})

it('headers over 16 KiB: 431 with the body', async () => {
  const { responses } = await rawExchange(
    port,
    `GET /api/v1/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
  )
  expectErrorBody(
    responses[0]!,
    431,
    'invalid_parameter',
    'Request line or headers too large (at most 16 KiB)',
  )
})
