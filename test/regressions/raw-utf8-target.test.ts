/**
 * Issue 15.1: accents typed straight into a URL (`curl "…/facts?q=priorité&po_live=1"`) were refused
 * with `400 Malformed HTTP request`. Raw UTF-8 in a target is now read as its percent-encoded form;
 * bytes that are not UTF-8 get a message that says what to do.
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

const request = (target: Buffer | string) =>
  Buffer.concat([
    Buffer.from('GET '),
    Buffer.from(target),
    Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n'),
  ])

it('answers raw UTF-8 in the query exactly as its percent-encoded form', async () => {
  const raw = await rawExchange(port, request('/api/v1/facts?q=priorité&po_live=1'))
  const encoded = await rawExchange(port, request('/api/v1/facts?q=priorit%C3%A9&po_live=1'))
  expect(raw.responses).toHaveLength(1)
  expect(raw.responses[0]!.status).toBe(200)
  expect(raw.responses[0]!.text).toBe(encoded.responses[0]!.text)
  expect(raw.responses[0]!.json.total).toBeGreaterThan(0)
  expect(raw.responses[0]!.headers['connection']).toBe('close')
})

it('redirects raw UTF-8 to its encoded live read', async () => {
  const { responses } = await rawExchange(
    port,
    request('/api/v1/facts?q=sécurité routière'.replace(' ', '+')),
  )
  expect(responses[0]!.status).toBe(307)
  expect(responses[0]!.headers['location']).toBe('/api/v1/facts?q=s%C3%A9curit%C3%A9+routi%C3%A8re&po_live=1')
})

it('refuses bytes that are not UTF-8, saying how to encode', async () => {
  const { responses } = await rawExchange(
    port,
    request(Buffer.from([...Buffer.from('/api/v1/facts?q=priorit'), 0xe9, ...Buffer.from('&po_live=1')])),
  )
  expect(responses[0]!.status).toBe(400)
  expect(responses[0]!.json.error.message).toMatch(/percent-encode .* curl -G --data-urlencode/)
})
