/**
 * The pages for people over a listening service: addresses, headers (CSP, nosniff, ETag/304,
 * compression), the quota they count in, their refusals as HTML, caching per snapshot, and the
 * OpenAPI examples the reference shows, checked against the service's own answers.
 */
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecordIndex } from '../../src/core/search/record-index.js'
import {
  ERROR_EXAMPLES,
  SEARCH_EXAMPLE,
  SEARCH_EXAMPLE_QUERY,
  SEARCH_NO_MATCH_EXAMPLE,
  SEARCH_NO_MATCH_EXAMPLE_QUERY,
} from '../../src/http/openapi-examples.js'
import { PAGE_CONTENT_SECURITY_POLICY } from '../../src/http/pages/index.js'
import { REFERENCE_CONTENT_SECURITY_POLICY } from '../../src/http/pages/reference.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ RECORDS_FILE: BUNDLED })
})
afterAll(() => server.close())

const html = (path: string, headers: Record<string, string> = {}) =>
  server.raw(path, { headers: { accept: 'text/html', 'accept-encoding': 'identity', ...headers } })

describe('the pages', () => {
  it.each([
    ['/', 'Fiches de référence sur la conduite et le code de la route'],
    ['/recherche?q=vitesse&kind=fact', '18 fiches pour « vitesse » (Règles officielles) — page 1 sur 2'],
    ['/fiches/fait-643b555e754f953d', 'Vitesse maximale en agglomération : 50 km/h'],
    ['/docs', 'Reference-Records API v1 — guide'],
    ['/docs/search', 'Search: how a query is read, and how well it answers'],
    ['/docs/operations', 'Operations'],
    ['/reference', 'Référence interactive de l’API'],
  ])('serves %s as HTML with its security headers', async (path, heading) => {
    const res = await html(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toBe(
      path === '/reference' ? REFERENCE_CONTENT_SECURITY_POLICY : PAGE_CONTENT_SECURITY_POLICY,
    )
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.text.replace(/<[^>]+>/g, '')).toContain(heading)
    // No inline script or style anywhere: the policy would refuse them.
    // A JSON-LD block is data, never run: the policy's script-src does not apply to it.
    expect(res.text).not.toMatch(
      /<script(?![^>]*\ssrc=)(?! type="application\/ld\+json">)|<style|\sstyle="|\son[a-z]+="/i,
    )
  })

  it('home: counts per kind from the live catalogue, the publisher and the way onward', async () => {
    const res = await html('/')
    expect(res.text).toContain('<td><a href="/recherche?kind=lesson">Leçons</a></td><td>96</td>')
    expect(res.text).toContain('<th scope="row">Total</th><td>264</td>')
    expect(res.text).toContain('publiées par <a href="/fiches/brand-')
    for (const link of [
      '/recherche"',
      '/docs"',
      '/reference"',
      '/api/v1/openapi.json?po_live=1"',
      '/docs#mcp-tool-protocol-server"',
      'mailto:contact@code-et-conduite.example"',
    ]) {
      expect(res.text).toContain(`href="${link}`)
    }
  })

  it('search: says which misspelled word was corrected, and to what', async () => {
    const res = await html('/recherche?q=trotoir')
    expect(res.status).toBe(200)
    const text = res.text.replace(/<[^>]+>/g, '')
    expect(text).toContain(
      'Aucune fiche ne contient « trotoir » : la recherche a utilisé « trottoir » à la place.',
    )
    expect(res.text).toContain('<strong>« trottoir »</strong>')
    expect(text).toMatch(/\d+ fiches pour « trotoir »/)
  })

  it('search: matches best by default, saying which words the first records hold and what each result lacks', async () => {
    const res = await html(`/recherche?${new URLSearchParams(SEARCH_NO_MATCH_EXAMPLE_QUERY)}`)
    expect(res.status).toBe(200)
    const text = res.text.replace(/<[^>]+>/g, '')
    expect(text).toMatch(
      /Aucune fiche ne contient tous ces mots : (la première fiche contient|les \d+ premières fiches contiennent) « [^»]+ »((, « [^»]+ »)* et « [^»]+ »)?, mais (pas « [^»]+ »|ni « [^»]+ »( ni « [^»]+ »)+) ; les suivantes en contiennent moins\./,
    )
    expect(text).toContain('Ne contient pas :')
    expect(res.text).toContain(
      `href="/recherche?${new URLSearchParams({ ...SEARCH_NO_MATCH_EXAMPLE_QUERY, match: 'all' }).toString().replaceAll('&', '&amp;')}">Chercher seulement les fiches qui contiennent tous les mots</a>`,
    )
  })

  it('search with match=all and no match: says why, and offers the relaxed queries as links to their searches', async () => {
    const res = await html(
      `/recherche?${new URLSearchParams({ ...SEARCH_NO_MATCH_EXAMPLE_QUERY, match: 'all' })}`,
    )
    expect(res.status).toBe(200)
    const text = res.text.replace(/<[^>]+>/g, '')
    expect(text).toContain('Mots ignorés, trop courants : « peut », « on », « en » et « sur ».')
    expect(text).toContain(
      'Aucune fiche ne contient « trotinette » : la recherche a utilisé « trottinette » à la place.',
    )
    expect(text).toContain('Aucune fiche ne contient à la fois « rouler », « trottinette » et « autoroute ».')
    expect(text).toContain('Essayez plutôt :')
    const { relaxed } = SEARCH_NO_MATCH_EXAMPLE.interpretation
    expect(relaxed.length).toBeGreaterThan(0)
    for (const r of relaxed) {
      expect(res.text).toContain(
        `<a href="/recherche?${new URLSearchParams({ q: r.q, match: 'all' }).toString().replaceAll('&', '&amp;')}">${r.q}</a> — sans « ${r.without} »`,
      )
      // Each link leads to a search that finds what the suggestion promised.
      expect(
        (await html(`/recherche?${new URLSearchParams({ q: r.q, match: 'all' })}`)).text.replace(
          /<[^>]+>/g,
          '',
        ),
      ).toContain(`${r.total} fiche`)
    }
  })

  it('answers If-None-Match with 304, per encoding, and compresses what the client accepts', async () => {
    const plain = await html('/recherche?q=vitesse')
    const etag = plain.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]{27}"$/)
    expect((await html('/recherche?q=vitesse', { 'if-none-match': etag })).status).toBe(304)
    const res = await fetch(`${server.url}/recherche?q=vitesse`, { headers: { 'accept-encoding': 'br' } })
    const raw = Buffer.from(await new Response(res.body).arrayBuffer())
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('etag')).toBe(`${etag.slice(0, -1)}-br"`)
    // fetch decodes br itself; either way the bytes are the page.
    expect(
      res.headers.get('content-encoding') === 'br' ? raw.toString() : brotliDecompressSync(raw).toString(),
    ).toBe(plain.text)
  })

  it('renders a new snapshot’s pages after a reload, never the old one’s', async () => {
    const before = await html('/recherche?q=vitesse&kind=fact')
    const old = server.records.current!
    server.records.swap(
      RecordIndex.build({
        records: old
          .listed(0, old.size)
          .map((e) => e.record)
          .filter((r) => r.id !== 'fait-643b555e754f953d'),
        publishedAt: old.publishedAt,
      }),
    )
    try {
      const after = await html('/recherche?q=vitesse&kind=fact')
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
      expect(after.text).toContain('17 fiches pour « vitesse »')
      expect((await html('/fiches/fait-643b555e754f953d')).status).toBe(404)
    } finally {
      server.records.swap(old)
    }
  })

  it('links related records to their pages here, and others to their site', async () => {
    const res = await html('/fiches/fait-643b555e754f953d')
    expect(res.text).toMatch(
      /<li><a href="\/fiches\/page-[0-9a-f]{16}">Les vitesses maximales autorisées<\/a>/,
    )
    expect(res.text).toContain(
      '<code data-copy>Source : Vitesse maximale en agglomération : 50 km/h — https://code-et-conduite.example/regles/vitesse-agglomeration</code>',
    )
  })

  it('refuses what it cannot show with an HTML page in French and the right status', async () => {
    const badKind = await html('/recherche?kind=regle')
    expect(badKind.status).toBe(400)
    expect(badKind.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(badKind.headers.get('cache-control')).toBe('no-store')
    expect(badKind.text).toContain(
      'Le type de fiche « regle » n’existe pas ; choisissez-en un dans la liste.',
    )
    const unknown = await html('/fiches/fait-0000000000000000')
    expect([
      unknown.status,
      unknown.text.includes('Aucune fiche n’a l’identifiant « fait-0000000000000000 »'),
    ]).toEqual([404, true])
    expect((await html('/fiches/n-importe-quoi')).status).toBe(404)
    expect((await html('/docs/nope')).status).toBe(404)
    // An unknown path: a page for a browser, the contract's JSON for everyone else and under the API.
    const typo = await server.raw('/recherch', {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    })
    expect([
      typo.status,
      typo.headers.get('content-type'),
      typo.text.includes('Aucune page à l’adresse /recherch.'),
    ]).toEqual([404, 'text/html; charset=utf-8', true])
    expect(typo.headers.get('content-security-policy')).toBe(PAGE_CONTENT_SECURITY_POLICY)
    expect((await server.get('/recherch')).body).toEqual({
      error: { code: 'not_found', message: 'No such path: /recherch' },
    })
    expect((await server.get('/api/v1/nope', { headers: { accept: 'text/html' } })).body.error.code).toBe(
      'not_found',
    )
    const post = await server.raw('/recherche', { method: 'POST' })
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS'])
  })
})

describe('the guide in Markdown', () => {
  it('answers Accept: text/markdown, and at the .md address, with links to the served Markdown', async () => {
    const negotiated = await server.raw('/docs', { headers: { accept: 'text/markdown' } })
    const direct = await server.raw('/docs.md')
    expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(negotiated.headers.get('vary')).toBe('Accept, Accept-Encoding')
    expect(direct.text).toBe(negotiated.text)
    expect(direct.text).toContain('](/docs/search.md)')
    expect((await server.raw('/docs/search.md')).text).toMatch(/^# Search: how a query is read/)
  })
  it('sends /docs/ to /docs, and /fiches to the search', async () => {
    const res = await server.raw('/docs/')
    expect([res.status, res.headers.get('location')]).toEqual([308, '/docs'])
    const fiches = await server.raw('/fiches')
    expect([fiches.status, fiches.headers.get('location')]).toEqual([301, '/recherche'])
  })
})

describe('assets', () => {
  it('serves the pages’ files from this origin under content-hashed, immutable addresses', async () => {
    const page = (await html('/reference')).text
    const addresses = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(addresses.map((a) => a.split('/').pop()).sort()).toEqual([
      'icon.svg',
      'icon.svg',
      'reference.css',
      'reference.js',
      'site.css',
      'swagger-ui-bundle.js',
      'swagger-ui.css',
    ])
    for (const address of addresses) {
      const res = await server.raw(address)
      expect(res.status, address).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    expect((await server.raw('/assets/0000/site.css')).status).toBe(404)
  })
})

describe('OpenAPI examples are the service’s own answers', () => {
  it.each([
    ['search', SEARCH_EXAMPLE_QUERY, SEARCH_EXAMPLE],
    ['search with no match', SEARCH_NO_MATCH_EXAMPLE_QUERY, SEARCH_NO_MATCH_EXAMPLE],
  ])('%s, interpretation included', async (_, params, example) => {
    const res = await server.get(`/api/v1/facts?${new URLSearchParams({ ...params, po_live: '1' })}`)
    expect(res.body).toEqual(example)
  })
  it('names both search examples on the search operation', async () => {
    const doc = (await server.get('/api/v1/openapi.json?po_live=1')).body
    const examples = doc.paths['/facts'].get.responses['200'].content['application/json'].examples
    expect(examples.search.value).toEqual(SEARCH_EXAMPLE)
    expect(examples.noMatch.value).toEqual(SEARCH_NO_MATCH_EXAMPLE)
  })
  it.each([
    ['400', 'outOfRange', '/api/v1/facts?limit=0&po_live=1'],
    ['400', 'unknown', '/api/v1/facts?kinds=fact&po_live=1'],
    ['400', 'badEncoding', '/api/v1/facts?q=%E9&po_live=1'],
    ['400', 'badId', '/api/v1/facts/fait-123?po_live=1'],
    ['404', 'unknownRecord', '/api/v1/facts/fait-0000000000000000?po_live=1'],
  ])('%s %s', async (status, name, path) => {
    const res = await server.get(path)
    expect([String(res.status), res.body]).toEqual([status, ERROR_EXAMPLES[status]![name]!.value])
  })
  it('405, 414 and 431', async () => {
    expect((await server.raw('/api/v1/facts', { method: 'POST' })).body).toEqual(
      ERROR_EXAMPLES['405']!.post!.value,
    )
    const target = '/api/v1/facts?po_live=1&q='
    expect((await server.raw(target + 'a'.repeat(9000 - target.length))).body).toEqual(
      ERROR_EXAMPLES['414']!.tooLong!.value,
    )
    expect(
      (await server.raw('/api/v1/?po_live=1', { headers: { 'x-big': 'a'.repeat(17_000) } })).body,
    ).toEqual(ERROR_EXAMPLES['431']!.tooLarge!.value)
  })
})

describe('the quota', () => {
  let strict: TestServer
  beforeAll(async () => {
    // 4: the test server reads the OpenAPI document once when it starts.
    strict = await startTestServer({ RECORDS_FILE: BUNDLED, RATE_LIMIT_PER_MINUTE: '4' })
  })
  afterAll(() => strict?.close())

  it('counts searches and record pages with the API, and refuses with a page that says when to come back', async () => {
    const counted = ['/recherche?q=vitesse', '/fiches/fait-643b555e754f953d', '/api/v1/?po_live=1']
    const remaining: (string | null)[] = []
    for (const path of counted) remaining.push((await strict.raw(path)).headers.get('ratelimit'))
    expect(remaining.map((r) => /r=(\d+)/.exec(r ?? '')?.[1])).toEqual(['2', '1', '0'])
    // The home page, the guides, the reference and the assets are not counted: still served.
    for (const path of ['/', '/docs', '/reference']) expect((await strict.raw(path)).status, path).toBe(200)

    const refused = await strict.raw('/recherche?q=vitesse', { headers: { accept: 'text/html' } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const wait = Number(refused.headers.get('retry-after'))
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    const seconds = wait === 1 ? '1 seconde' : wait === 60 ? '1 minute' : `${wait} secondes`
    expect(refused.text.replace(/<[^>]+>/g, '')).toContain(
      `Revenez dans ${seconds} : cette page s’affichera de nouveau normalement.`,
    )
    expect(refused.text).toContain('au plus 4 requêtes par minute')
    expect(refused.text).toContain('<a class="button" href="/recherche?q=vitesse">Réessayer</a>')
    expect((await strict.raw('/fiches/fait-643b555e754f953d')).status).toBe(429)
    // The API's refusal in the same window keeps its JSON body, and the example's wording.
    const api = await strict.get('/api/v1/?po_live=1')
    const example = (ERROR_EXAMPLES['429']!.quota!.value as { error: { message: string } }).error.message
    expect(api.body.error.message).toMatch(
      new RegExp(`^${example.replace(/120/, '4').replace(/42/, '\\d+')}$`),
    )
  })
})
