/**
 * Issue 10.2: an absolute-form target's authority reached the live-read redirect's Location, cached
 * for a day (`GET http://evil.example/api/v1/facts?q=x` → `Location: http://evil.example/…`), and with
 * PUBLIC_BASE_URL set the Location became `https://records.example.orghttp://evil.example/…`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const request = (target: string, headers = 'Host: evil.example\r\nX-Forwarded-Host: evil.example\r\n') =>
  `GET ${target} HTTP/1.1\r\n${headers}\r\n`

// evil.example is listed, so that the requests pass the DNS-rebinding guard: a Host the service
// answers for is still never echoed.
describe.each([
  ['without PUBLIC_BASE_URL', { ALLOWED_HOSTS: 'evil.example' }, ''],
  [
    'with PUBLIC_BASE_URL',
    { PUBLIC_BASE_URL: 'https://records.example.org', ALLOWED_HOSTS: 'evil.example' },
    'https://records.example.org',
  ],
])('the 307 Location %s', (_name, env: Record<string, string>, base) => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startTestServer(env)
    port = Number(new URL(server.url).port)
  })
  afterAll(() => server.close())

  it.each([
    ['http://evil.example/api/v1/facts?q=x', '/api/v1/facts?q=x&po_live=1'],
    ['https://evil.example:8443/api/v1/facts?q=a%20b', '/api/v1/facts?q=a%20b&po_live=1'],
    ['HTTP://EVIL.EXAMPLE/api/v1/', '/api/v1/?po_live=1'],
    ['http://evil.example:1/api/v1?q=é', undefined, 307],
    ['//evil.example/api/v1/facts', undefined, 404],
    ['/api/v1/facts?q=x', '/api/v1/facts?q=x&po_live=1'],
  ])('%s → %s', async (target, location, status?: number) => {
    const { responses } = await rawExchange(port, request(target))
    if (location === undefined) {
      // A network-path reference is a path whose first segment is empty: no such address here (404); and a
      // raw byte that is not UTF-8-encoded… is UTF-8 here, so it is read again, encoded (a 307 of our own).
      expect(responses[0]!.status).toBe(status)
      expect(responses[0]!.headers['location'] ?? '').not.toContain('evil')
      return
    }
    expect(responses[0]!.status).toBe(307)
    expect(responses[0]!.headers['location']).toBe(`${base}${location}`)
    expect(responses[0]!.headers['location']).not.toContain('evil')
  })
})
