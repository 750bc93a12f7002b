/**
 * The API over a real listening server: every operation, every status this service produces, the
 * contract's redirect, CORS, method and caching rules. Every response goes through the OpenAPI check.
 */
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const records = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const fact = records[0]!
let server: TestServer
beforeAll(async () => {
  // Listed for the DNS-rebinding guard (docs/operations.md, "Host names"): evil.example so that the
  // Location test below sees a Host it could echo; the others are the pages of other sites the CORS
  // tests call from, as they would call a public deployment.
  server = await startTestServer({ ALLOWED_HOSTS: 'evil.example,reuser.example,example.org' })
})
afterAll(() => server.close())

const OPERATIONS = [
  '/api/v1/',
  '/api/v1',
  '/api/v1/facts',
  `/api/v1/facts/${fact.id}`,
  '/api/v1/openapi.json',
]

describe('live-read redirect (po_live)', () => {
  it.each(OPERATIONS)('GET %s without po_live is a cacheable 307 to the live read', async (path) => {
    const res = await server.get(path)
    expect(res.status).toBe(307)
    expect(res.headers.get('location')).toBe(`${path}?po_live=1`)
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
  it('names the live address in a small JSON body too, for clients that do not follow redirects (curl | jq)', async () => {
    const path = '/api/v1/facts?q=priorit%C3%A9&kind=fact'
    const res = await server.get(path)
    expect(res.status).toBe(307)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.body).toEqual({ location: `${path}&po_live=1` })
    expect(res.body.location).toBe(res.headers.get('location'))
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400')
    const head = await server.raw(path, { method: 'HEAD' })
    expect(head.status).toBe(307)
    expect(head.text).toBe('')
    expect(head.headers.get('location')).toBe(`${path}&po_live=1`)
  })
  it('keeps the query byte-exact and appends po_live=1', async () => {
    const path = '/api/v1/facts?q=s%C3%A9curit%C3%A9+routi%C3%A8re&kind=fact&limit=5'
    expect((await server.get(path)).headers.get('location')).toBe(`${path}&po_live=1`)
    expect((await server.get('/api/v1/facts?')).headers.get('location')).toBe('/api/v1/facts?po_live=1')
  })
  it('redirects before any other check: the error comes on the live read', async () => {
    for (const [path, status, code] of [
      ['/api/v1/facts?limit=999', 400, 'invalid_parameter'],
      ['/api/v1/facts/not-an-id', 400, 'invalid_parameter'],
      ['/api/v1/facts?q=%ZZ', 400, 'invalid_parameter'],
      ['/api/v1/facts/fait-0000000000000000', 404, 'not_found'],
    ] as const) {
      const res = await server.get(path)
      expect(res.status, path).toBe(307)
      const live = await server.get(res.headers.get('location')!)
      expect(live.status, path).toBe(status)
      expect(live.body.error.code, path).toBe(code)
    }
  })
  it('following the Location gives the result', async () => {
    const first = await server.get('/api/v1/facts?kind=fact')
    const live = await server.get(first.headers.get('location')!)
    expect(live.status).toBe(200)
    expect(live.body.total).toBe(3)
  })
  it('never builds the Location from Host or X-Forwarded-Host', async () => {
    const res = await server.get('/api/v1/facts', {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    })
    expect(res.headers.get('location')).toBe('/api/v1/facts?po_live=1')
  })
  it.each([
    ['po_live=2', /Query parameter "po_live" must be 1/],
    ['po_live=', /Query parameter "po_live" must be 1/],
    ['po_live=1&po_live=1', /"po_live" is given 2 times/],
    ['po%5Flive=true', /Query parameter "po_live" must be 1/],
  ])('refuses %s with a 400', async (query, message) => {
    const res = await server.get(`/api/v1/facts?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'invalid_parameter', message: expect.stringMatching(message) })
  })
})

describe('public base URL', () => {
  it('makes the Location and the catalogue links absolute, on that origin', async () => {
    const other = await startTestServer({ PUBLIC_BASE_URL: 'https://records.example.org/' })
    try {
      const res = await other.get('/api/v1/facts?q=x', { headers: { host: 'evil.example' } })
      expect(res.headers.get('location')).toBe('https://records.example.org/api/v1/facts?q=x&po_live=1')
      expect(res.body).toEqual({ location: 'https://records.example.org/api/v1/facts?q=x&po_live=1' })
      const catalogue = await other.get('/api/v1/?po_live=1')
      expect(catalogue.body.links.search).toBe('https://records.example.org/api/v1/facts')
      const doc = await other.get('/api/v1/openapi.json?po_live=1')
      expect(doc.body.servers).toEqual([{ url: 'https://records.example.org/api/v1' }])
    } finally {
      await other.close()
    }
  })
})

describe('GET /api/v1/ (getCatalogue)', () => {
  it('describes the API: counts per kind (zeros included), links, limits, reuse', async () => {
    const res = await server.get('/api/v1/?po_live=1')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      version: '1.4.0',
      records: {
        total: 13,
        by_kind: {
          fact: 3,
          expertise: 1,
          organization: 1,
          offer: 1,
          person: 1,
          article: 1,
          lesson: 3,
          page: 1,
          tool: 1,
        },
      },
      links: {
        search: '/api/v1/facts',
        record: '/api/v1/facts/{id}',
        openapi: '/api/v1/openapi.json',
        docs: '/docs',
      },
      limits: { max_limit: 50, max_offset: 10000, max_q_length: 300 },
      reuse: { contact: 'contact@code-et-conduite.example' },
    })
    expect(Date.parse(res.body.updated_at)).not.toBeNaN()
  })
  it('answers /api/v1 like /api/v1/', async () => {
    const [a, b] = await Promise.all([server.get('/api/v1?po_live=1'), server.get('/api/v1/?po_live=1')])
    expect(a.text).toBe(b.text)
  })
  it('follows the docs link: the guide in HTML, or in Markdown when asked for', async () => {
    const res = await server.raw('/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.text).toMatch(/po_live/)
    const markdown = await server.raw('/docs', { headers: { accept: 'text/markdown' } })
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(markdown.text).toMatch(/^# Reference-Records API v1/)
  })
})

describe('GET /api/v1/facts (searchFacts)', () => {
  it('returns the envelope with the defaults', async () => {
    const res = await server.get('/api/v1/facts?po_live=1')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: 13, limit: 10, offset: 0 })
    expect(res.body.results).toHaveLength(10)
  })
  it('searches with accents, elisions and filters', async () => {
    const res = await server.get(
      `/api/v1/facts?q=${encodeURIComponent("l'ALCOOLÉMIE")}&kind=fact&region=france&po_live=1`,
    )
    expect(res.body.results.map((r: Fact) => r.id)).toEqual([records[1]!.id])
  })
  it('pages through everything', async () => {
    const seen: string[] = []
    for (let offset = 0; offset < 13; offset += 5) {
      const res = await server.get(`/api/v1/facts?limit=5&offset=${offset}&po_live=1`)
      expect(res.body).toMatchObject({ total: 13, limit: 5, offset })
      seen.push(...res.body.results.map((r: Fact) => r.id))
    }
    expect(new Set(seen).size).toBe(13)
  })
  it('says how q was read, and on no result which queries would match (checked against the OpenAPI document)', async () => {
    const found = await server.get(
      `/api/v1/facts?q=${encodeURIComponent('est-ce que la priorité à droite ?')}&po_live=1`,
    )
    expect(found.body.interpretation).toEqual({
      words: ['priorité', 'droite'],
      ignored: ['est', 'ce', 'que', 'la', 'à'],
      corrected: [],
      expanded: [],
      relaxed: [],
    })
    const none = await server.get(`/api/v1/facts?q=${encodeURIComponent('priorité alcoolémie')}&po_live=1`)
    expect(none.body).toMatchObject({ total: 0, results: [] })
    // fewest matches first; at equal totals, in the order of the words left out
    expect(none.body.interpretation.relaxed).toEqual([
      { without: 'priorité', q: 'alcoolémie', total: 1 },
      { without: 'alcoolémie', q: 'priorité', total: 1 },
    ])
    const listing = await server.get('/api/v1/facts?po_live=1')
    expect(listing.body).not.toHaveProperty('interpretation')
  })
  it('with match=best, answers the records holding the most words and names the word left out (checked against the OpenAPI document)', async () => {
    const q = encodeURIComponent('priorité alcoolémie')
    const best = await server.get(`/api/v1/facts?q=${q}&match=best&po_live=1`)
    expect(best.status).toBe(200)
    expect(best.body.total).toBe(1)
    expect(best.body.results.length).toBeGreaterThanOrEqual(1)
    expect(best.body.interpretation).toMatchObject({ words: ['priorité', 'alcoolémie'], relaxed: [] })
    expect([best.body.interpretation.matched, best.body.interpretation.left_out]).toContainEqual([
      'alcoolémie',
    ])
    expect(best.body.interpretation.missing[0].id).toBe(best.body.results[0].id)
    // The default is the spec's rule, and match=all says it explicitly: the same answer.
    const all = await server.get(`/api/v1/facts?q=${q}&match=all&po_live=1`)
    expect(all.body).toMatchObject({ total: 0, results: [] })
    expect(all.body).not.toHaveProperty('interpretation.matched')
  })
  it('returns records byte-equal to getFact', async () => {
    const res = await server.get(`/api/v1/facts?q=${encodeURIComponent(fact.title)}&po_live=1`)
    const one = await server.get(`/api/v1/facts/${fact.id}?po_live=1`)
    expect(res.body.results[0]).toEqual(one.body)
  })
})

describe('GET /api/v1/facts/{id} (getFact)', () => {
  it('returns the record with its provenance', async () => {
    const res = await server.get(`/api/v1/facts/${fact.id}?po_live=1`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(fact)
  })
  it('says how old its verification is today, in a header a browser may read', async () => {
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())
    for (const record of records) {
      const res = await server.get(`/api/v1/facts/${record.id}?po_live=1`)
      const age = res.headers.get('verification-age')
      if (record.verified_at === undefined) expect(age, record.id).toBeNull()
      else
        expect(age, record.id).toMatch(
          new RegExp(`^${(today - Date.parse(record.verified_at)) / 86_400_000}(;reverify)?$`),
        )
    }
    const res = await server.get(`/api/v1/facts/${fact.id}?po_live=1`, {
      headers: { origin: 'https://example.org' },
    })
    expect(res.headers.get('access-control-expose-headers')).toContain('Verification-Age')
  })
  it('answers an unknown well-formed id with 404 naming it', async () => {
    const res = await server.get('/api/v1/facts/fait-0000000000000000?po_live=1')
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({
      code: 'not_found',
      message: 'No record with id "fait-0000000000000000"; search with /api/v1/facts',
    })
  })
})

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.1, version 1.4.0, with the operations and no security scheme', async () => {
    const doc = server.validator.doc
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.4.0')
    expect(doc.paths['/'].get.operationId).toBe('getCatalogue')
    expect(doc.paths['/facts'].get.operationId).toBe('searchFacts')
    expect(doc.paths['/facts/{id}'].get.operationId).toBe('getFact')
    expect(doc.components.securitySchemes).toBeUndefined()
    for (const status of ['200', '307', '400', '405', '429', '503']) {
      for (const path of Object.keys(doc.paths))
        if (status !== '307' || !['/facts.ndjson', '/changes'].includes(path))
          expect(doc.paths[path].get.responses[status], `${path} ${status}`).toBeDefined()
    }
    // The download and the change feed are not redirected.
    expect(doc.paths['/facts.ndjson'].get.responses['307']).toBeUndefined()
    expect(doc.paths['/changes'].get.responses['307']).toBeUndefined()
    expect(doc.paths['/changes'].get.responses['410']).toBeDefined()
    expect(doc.paths['/facts/{id}'].get.responses['404']).toBeDefined()
  })
})

describe('ETag and 304', () => {
  it.each([
    `/api/v1/facts/${fact.id}?po_live=1`,
    '/api/v1/facts?q=conduite&po_live=1',
    '/api/v1/?po_live=1',
    '/api/v1/openapi.json?po_live=1',
  ])('%s: a re-read with the ETag is a 304 without body', async (path) => {
    const first = await server.get(path)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[^"]+"$/) // strong
    expect(first.headers.get('cache-control')).toBe('no-cache')
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await server.get(path, { headers: { 'if-none-match': header } })
      expect(again.status, header).toBe(304)
      expect(again.text).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('access-control-allow-origin')).toBe('*')
    }
    expect((await server.get(path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200)
  })
  it('gives different searches different ETags, and equivalent ones the same', async () => {
    const etag = async (target: string) =>
      (await server.get(`/api/v1/facts?${target}&po_live=1`)).headers.get('etag')
    // the same q, percent-encoded two ways
    expect(await etag('q=Alcool%C3%A9mie')).toBe(await etag('q=Alcool%c3%a9mie'))
    // the interpretation shows the words as typed, so another spelling is another answer
    expect(await etag('q=Alcool%C3%A9mie')).not.toBe(await etag('q=alcoolemie'))
    expect(await etag('q=alcoolemie')).not.toBe(await etag('q=conduite'))
  })
})

describe('CORS', () => {
  it.each([
    ['200', `/api/v1/facts/${fact.id}?po_live=1`],
    ['307', '/api/v1/facts'],
    ['400', '/api/v1/facts?limit=0&po_live=1'],
    ['404', '/api/v1/nope'],
  ])(
    'allows every origin on a %s, without credentials, exposing the headers clients need',
    async (_status, path) => {
      const res = await server.get(path, { headers: { origin: 'https://reuser.example' } })
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
      const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/)
      expect(exposed).toEqual(
        expect.arrayContaining(['retry-after', 'etag', 'ratelimit', 'ratelimit-policy']),
      )
    },
  )
  it('answers a preflight with 204', async () => {
    const res = await server.raw('/api/v1/facts', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://reuser.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    // the API's own policy: read-only methods, its own headers (MCP's are for /mcp only)
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
    expect(res.headers.get('access-control-allow-headers')!.toLowerCase().split(', ')).toContain(
      'if-none-match',
    )
    expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).not.toContain('mcp-')
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'ETag, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, X-Publication-Id, X-Records-Checksum, Verification-Age',
    )
  })
})

describe('methods', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'refuses %s on every API path with 405, Allow and the error body',
    async (method) => {
      for (const path of [...OPERATIONS, '/api/v1/facts/anything']) {
        const res = await server.raw(path, {
          method,
          body: method === 'DELETE' ? undefined : '<x/>',
          headers: { 'content-type': 'application/xml' },
        })
        expect(res.status, `${method} ${path}`).toBe(405)
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
        expect(res.headers.get('access-control-allow-origin')).toBe('*')
        expect(res.body.error.code).toBe('method_not_allowed')
        server.validator.check({ ...res, path: '/api/v1/facts' })
      }
    },
  )
  it('answers an unknown path with 404 whatever the method', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await server.raw('/api/v2/facts', { method })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'No such path: /api/v2/facts' } })
    }
  })
  it.each([`/api/v1/facts/${fact.id}?po_live=1`, '/api/v1/facts?q=conduite&po_live=1', '/api/v1/facts'])(
    'HEAD %s: GET headers, no body',
    async (path) => {
      const [head, get] = await Promise.all([server.raw(path, { method: 'HEAD' }), server.raw(path)])
      expect(head.status).toBe(get.status)
      expect(head.text).toBe('')
      for (const name of [
        'content-type',
        'content-length',
        'etag',
        'location',
        'access-control-allow-origin',
      ]) {
        expect(head.headers.get(name), name).toBe(get.headers.get(name))
      }
    },
  )
})

describe('bad input is a 4xx with the error body, never a 5xx', () => {
  const q301 = 'a'.repeat(301)
  it.each([
    ['limit=0', /"limit" must be an integer from 1 to 50 \(got "0"\)/],
    ['limit=51', /"limit" must be an integer from 1 to 50 \(got "51"\)/],
    ['limit=abc', /"limit" must be an integer from 1 to 50/],
    ['limit=1e1', /"limit" must be an integer/],
    ['limit=-1', /"limit" must be an integer/],
    ['limit=', /"limit" must be an integer/],
    ['limit=99999999999999999999', /"limit" must be an integer/],
    ['offset=10001', /"offset" must be an integer from 0 to 10000/],
    ['offset=x', /"offset" must be an integer from 0 to 10000/],
    [`q=${q301}`, /"q" must be at most 300 characters/],
    ['q=%00drop', /"q" must not contain control characters/],
    [
      'kind=rule',
      /^Query parameter "kind" must be one of fact, expertise, organization, offer, person, article, lesson, page, tool \(got "rule"\)$/,
    ],
    ['region=spain', /^Query parameter "region" must be france \(got "spain"\)$/],
    // Enumerated values are exact (case is not folded): a value that differs only by case is told what to send.
    [
      'region=France',
      /^Query parameter "region" must be france; values are case-sensitive: send "france" \(got "France"\)$/,
    ],
    [
      'kind=Fact',
      /^Query parameter "kind" must be one of fact, .*, tool; values are case-sensitive: send "fact" \(got "Fact"\)$/,
    ],
    ['kind=LESSON', /; values are case-sensitive: send "lesson" \(got "LESSON"\)$/],
    [
      'kinds=fact',
      /Unknown query parameter "kinds"; allowed: q, region, kind, match, limit, offset, po_live/,
    ],
    ['match=any', /^Query parameter "match" must be all or best \(got "any"\)$/],
    [
      'match=Best',
      /^Query parameter "match" must be all or best; values are case-sensitive: send "best" \(got "Best"\)$/,
    ],
    ['match=', /"match" must be all or best/],
    ['match=all&match=best', /"match" is given 2 times; give it at most once/],
    ['kind=fact&kind=lesson', /"kind" is given 2 times; give it at most once/],
    ['q=%ZZ', /"q" has invalid percent-encoding/],
    ['q=%C3%28', /"q" has invalid percent-encoding/],
    ['%FF=1', /invalid percent-encoding/],
  ])('searchFacts ?%s', async (query, message) => {
    const res = await server.get(`/api/v1/facts?${query}&po_live=1`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_parameter')
    expect(res.body.error.message).toMatch(message)
  })
  it('accepts q of exactly 300 characters, counted in code points', async () => {
    const res = await server.get(`/api/v1/facts?q=${encodeURIComponent('🚗'.repeat(300))}&po_live=1`)
    expect(res.status).toBe(200)
  })
  it.each([
    'fait-123',
    'FAIT-0123456789ABCDEF',
    'fait-0123456789abcdef0',
    'lesson-0123456789abcdef',
    '%00',
    'x'.repeat(900),
  ])('getFact with malformed id %s', async (id) => {
    const res = await server.get(`/api/v1/facts/${id}?po_live=1`)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/^Path parameter "id" must be a prefix/)
  })
  it('refuses parameters on operations that take none', async () => {
    for (const path of ['/api/v1/', `/api/v1/facts/${fact.id}`, '/api/v1/openapi.json']) {
      const res = await server.get(`${path}?po_live=1&q=x`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(
        'Unknown query parameter "q"; the only parameter allowed here is po_live',
      )
    }
  })
  it('answers invalid percent-encoding in the path with 400', async () => {
    const res = await server.get('/api/v1/facts/%E0%A4%A?po_live=1')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_parameter')
  })
  it('answers a URL over 8 KiB with 414', async () => {
    const res = await server.get(`/api/v1/facts?po_live=1&q=${'a'.repeat(9_000)}`)
    expect(res.status).toBe(414)
    expect(res.body.error.message).toMatch(/at most 8192/)
  })
  it('answers headers over 16 KiB with 431 and the error body, from the HTTP parser', async () => {
    const res = await server.raw(`/api/v1/facts?po_live=1&q=${'a'.repeat(20_000)}`)
    expect(res.status).toBe(431)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    server.validator.check({ ...res, path: '/api/v1/facts' })
  })
  it('answers a raw NUL byte or a malformed request line with 400 and the error body', async () => {
    for (const requestLine of ['GET /api/v1/facts?q=a\0b HTTP/1.1', 'GET /api/v1/facts HTTP/9.x']) {
      const { status, body } = await rawHttp(`${requestLine}\r\nHost: localhost\r\n\r\n`)
      expect(status, requestLine).toBe(400)
      expect(JSON.parse(body).error.code).toBe('invalid_parameter')
    }
  })
  it('keeps serving after all of that', async () => {
    expect((await server.get('/healthz')).status).toBe(200)
  })
})

describe('operational endpoints', () => {
  it('/healthz and /readyz answer, outside the API root', async () => {
    expect((await server.raw('/healthz')).body).toEqual({ status: 'ok' })
    const ready = await server.raw('/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toMatchObject({ status: 'ready', records: 13 })
  })
  it('sets a request id, keeping a sane one given by the caller', async () => {
    expect((await server.raw('/healthz')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(
      (await server.raw('/healthz', { headers: { 'x-request-id': 'trace-42' } })).headers.get('x-request-id'),
    ).toBe('trace-42')
    // An insane id is replaced by a fresh UUID. Checking that the answer lacks "bad" failed once
    // in CI: a random UUID's hex digits can spell "bad" (…-4bad-…).
    expect(
      (await server.raw('/healthz', { headers: { 'x-request-id': 'bad id\u00e9' } })).headers.get(
        'x-request-id',
      ),
    ).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })
})

/** Sends bytes fetch would refuse to send, and reads the status and body. */
function rawHttp(bytes: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(Buffer.from(bytes, 'latin1')))
    let data = ''
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')))
    socket.on('end', () => {
      const [head, body = ''] = data.split('\r\n\r\n')
      resolve({ status: Number(head!.split(' ')[1]), body })
    })
    socket.on('error', reject)
  })
}
