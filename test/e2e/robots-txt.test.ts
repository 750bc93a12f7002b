/**
 * /robots.txt over a listening service: a discovery document for crawlers, so it counts in the
 * quota like the others (docs/contract.md, "Extensions beyond the spec"), carries the public CORS
 * and an ETag, answers GET and HEAD only, and names the sitemap when there is a public base URL;
 * every page it allows answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
const BASE = 'https://records.example.org'
const remaining = (res: { headers: Headers }) =>
  Number(/;r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1])

let withBase: TestServer
let plain: TestServer
beforeAll(async () => {
  ;[withBase, plain] = await Promise.all([
    startTestServer({ RECORDS_FILE: BUNDLED, PUBLIC_BASE_URL: BASE }),
    startTestServer({ RECORDS_FILE: BUNDLED }),
  ])
})
afterAll(() => Promise.all([withBase?.close(), plain?.close()]))

describe('/robots.txt', () => {
  it('names the sitemap by its absolute address, which answers, with a public base URL', async () => {
    const res = await withBase.raw('/robots.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    const sitemaps = [...res.text.matchAll(/^Sitemap: (.+)$/gm)].map((m) => m[1])
    expect(sitemaps).toEqual([`${BASE}/sitemap.xml`])
    expect((await withBase.raw(new URL(sitemaps[0]!).pathname)).status).toBe(200)
    const etag = res.headers.get('etag')!
    expect((await withBase.raw('/robots.txt', { headers: { 'if-none-match': etag } })).status).toBe(304)
    const head = await withBase.raw('/robots.txt', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
  })

  it('names no sitemap without a public base URL (there is none), and still allows the pages', async () => {
    const res = await plain.raw('/robots.txt')
    expect(res.status).toBe(200)
    expect(res.text).toMatch(/^User-agent: \*$/m)
    expect(res.text).toMatch(/^Allow: \/$/m)
    expect(res.text).not.toMatch(/^Sitemap:/im)
    expect((await plain.raw('/sitemap.xml')).status).toBe(404)
  })

  it('allows pages that answer, and disallows only the addresses for programs', async () => {
    const text = (await plain.raw('/robots.txt')).text
    const disallowed = [...text.matchAll(/^Disallow: (.+)$/gm)].map((m) => m[1]!)
    expect(disallowed).toEqual(['/api/v1/', '/mcp'])
    const id = (await plain.get('/api/v1/facts?po_live=1&limit=1')).body.results[0].id
    for (const page of [
      '/',
      `/fiches/${id}`,
      '/recherche?q=vitesse',
      '/docs',
      '/llms.txt',
      '/catalog.jsonld',
    ]) {
      expect(
        disallowed.some((rule) => page.startsWith(rule)),
        page,
      ).toBe(false)
      const res = await plain.raw(page, { headers: { accept: 'text/html' } })
      expect(res.status, page).toBe(200)
    }
  })

  it('counts in the quota, as the other discovery documents do', async () => {
    const before = remaining(await plain.raw('/api/v1/?po_live=1'))
    const res = await plain.raw('/robots.txt')
    expect(remaining(res)).toBe(before - 1)
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=60$/)
  })

  it('refuses POST with 405 and the error body, uncounted', async () => {
    const res = await plain.raw('/robots.txt', { method: 'POST', body: 'x' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(res.body).toEqual({
      error: {
        code: 'method_not_allowed',
        message: 'Method POST is not allowed on /robots.txt (allowed: GET, HEAD, OPTIONS)',
      },
    })
    expect(res.headers.get('ratelimit')).toBeNull()
  })
})
