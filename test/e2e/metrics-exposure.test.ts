/**
 * /metrics is for the operator (issue 15.5): it answers the clients METRICS_ALLOW names (loopback
 * and private networks by default) and gives anyone else the 404 of an unknown path. Behind a trusted
 * proxy the forwarded client is the one checked, so the public never reads it through the balancer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const metricsFrom = (server: TestServer, client?: string) =>
  server.raw('/metrics', client === undefined ? {} : { headers: { 'x-forwarded-for': client } })

describe('by default (loopback and private networks)', () => {
  let server: TestServer
  // a.example: the page of another site the preflight comes from, listed for the DNS-rebinding guard.
  beforeAll(
    async () => (server = await startTestServer({ TRUST_PROXY: '127.0.0.1', ALLOWED_HOSTS: 'a.example' })),
  )
  afterAll(() => server.close())

  it('answers this machine and a private network', async () => {
    for (const client of [undefined, '10.0.0.5', '192.168.1.9', 'fd00::7']) {
      const res = await metricsFrom(server, client)
      expect(res.status, String(client)).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(res.text).toContain('reference_records_records ')
      // Issue 32: no CORS, so a page of another origin, opened inside an allowed network, cannot read it.
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    const preflight = await server.raw('/metrics', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('gives a client from the Internet the 404 of any unknown path', async () => {
    for (const client of ['203.0.113.5', '2001:db8::1']) {
      const res = await metricsFrom(server, client)
      expect(res.status, client).toBe(404)
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'No such path: /metrics' } })
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    }
    expect((await server.raw('/nope', { headers: { 'x-forwarded-for': '203.0.113.5' } })).body).toEqual({
      error: { code: 'not_found', message: 'No such path: /nope' },
    })
  })

  it('keeps /healthz and /readyz open to everyone: load balancers probe them', async () => {
    for (const path of ['/healthz', '/readyz'])
      expect((await server.raw(path, { headers: { 'x-forwarded-for': '203.0.113.5' } })).status).toBe(200)
  })
})

it('METRICS_ALLOW names exactly who may read', async () => {
  const server = await startTestServer({ TRUST_PROXY: '127.0.0.1', METRICS_ALLOW: 'loopback,198.51.100.7' })
  try {
    expect((await metricsFrom(server)).status).toBe(200)
    expect((await metricsFrom(server, '198.51.100.7')).status).toBe(200)
    expect((await metricsFrom(server, '10.0.0.5')).status).toBe(404)
  } finally {
    await server.close()
  }
})
