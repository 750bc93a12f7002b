/**
 * The discovery documents over a listening service: /llms.txt, /server.json and
 * /.well-known/mcp/server-card.json — their headers (public CORS, ETag/304, HEAD), their methods,
 * the quota they count in, their links from the home page and the catalogue, their validity against
 * the registry's and the card's schemas (local subsets: test/fixtures), and their agreement with
 * what the MCP endpoint itself answers (its tools, the protocol revisions it accepts).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverCardProblems, serverJsonProblems } from '../support/discovery-schemas.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
const DOCUMENTS = [
  ['/llms.txt', 'text/plain; charset=utf-8', 'no-cache'],
  ['/server.json', 'application/json; charset=utf-8', 'public, max-age=3600'],
  ['/.well-known/mcp/server-card.json', 'application/json; charset=utf-8', 'public, max-age=3600'],
] as const
const remaining = (res: { headers: Headers }) =>
  Number(/;r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1])

let server: TestServer
beforeAll(async () => {
  // app.example: the page of another site the CORS test calls from, listed for the DNS-rebinding guard.
  server = await startTestServer({ RECORDS_FILE: BUNDLED, ALLOWED_HOSTS: 'app.example' })
})
afterAll(() => server?.close())

describe('the discovery documents', () => {
  it.each(DOCUMENTS)(
    'serves %s with public CORS, an ETag and its 304, and HEAD',
    async (path, type, cacheControl) => {
      const res = await server.raw(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-expose-headers')).toContain('ETag')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('cache-control')).toBe(cacheControl)
      const etag = res.headers.get('etag')!
      expect(etag).toMatch(/^"[\w-]+"$/)
      expect((await server.raw(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
      const head = await server.raw(path, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.text).toBe('')
      expect(head.headers.get('etag')).toBe(etag)
      expect(head.headers.get('content-type')).toBe(type)
      const preflight = await server.raw(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
    },
  )

  it.each(DOCUMENTS)('refuses POST %s with 405 and the error body, uncounted', async (path) => {
    const res = await server.get(path, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.body).toEqual({
      error: {
        code: 'method_not_allowed',
        message: `Method POST is not allowed on ${path} (allowed: GET, HEAD, OPTIONS)`,
      },
    })
    expect(res.headers.get('ratelimit')).toBeNull()
  })

  it('counts each document in the quota, as a page', async () => {
    const before = remaining(await server.raw('/api/v1/?po_live=1'))
    const after: number[] = []
    for (const [path] of DOCUMENTS) after.push(remaining(await server.raw(path)))
    expect(after).toEqual([before - 1, before - 2, before - 3])
  })

  it('is linked from the catalogue and the home page, and every link answers', async () => {
    const { links } = (await server.get('/api/v1/?po_live=1')).body
    expect(links).toMatchObject({
      llms: '/llms.txt',
      server_json: '/server.json',
      server_card: '/.well-known/mcp/server-card.json',
    })
    const home = await server.raw('/', { headers: { accept: 'text/html' } })
    for (const link of [links.llms, links.server_json, links.server_card]) {
      expect(home.text).toContain(`href="${link}"`)
      expect((await server.raw(link)).status, link).toBe(200)
    }
  })
})

describe('server.json and the server card', () => {
  it('are valid against the registry schema and the card schema, and say the same', async () => {
    const serverJson = (await server.raw('/server.json')).body
    const card = (await server.raw('/.well-known/mcp/server-card.json')).body
    expect(serverJsonProblems(serverJson)).toEqual([])
    expect(serverCardProblems(card)).toEqual([])
    // No PUBLIC_BASE_URL: no absolute address is known, and the Host header is never used for one.
    expect(serverJson.name).toBe('invalid.reference-records/reference-records')
    expect(serverJson.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://{host}/mcp',
        variables: { host: expect.objectContaining({ isRequired: true }) },
      },
    ])
    expect(serverJson).not.toHaveProperty('websiteUrl')
    for (const field of ['name', 'title', 'description', 'version'])
      expect(card[field], field).toBe(serverJson[field])
    expect(serverJson.version).toBe((await import('../../src/core/version.js')).PACKAGE_VERSION)
  })

  it('serve the card also where the extension now reserves it, <streamable-http-url>/server-card, the same card', async () => {
    const known = await server.raw('/.well-known/mcp/server-card.json')
    const hosted = await server.raw('/mcp/server-card')
    expect(hosted.status).toBe(200)
    expect(hosted.text).toBe(known.text)
    const typed = await server.raw('/mcp/server-card', {
      headers: { accept: 'application/mcp-server-card+json' },
    })
    expect(typed.headers.get('content-type')).toMatch(/^application\/mcp-server-card\+json/)
  })

  it('name the protocol revisions the MCP endpoint accepts, each of them', async () => {
    const { supportedProtocolVersions } = (await server.raw('/.well-known/mcp/server-card.json')).body
      .remotes[0]
    expect(supportedProtocolVersions).toContain('2026-07-28')
    expect(supportedProtocolVersions).toContain('2025-06-18')
    for (const version of supportedProtocolVersions as string[]) {
      if (version >= '2026') {
        // A 2026-era client pinned to the revision: its server/discover must accept it.
        const client = new Client(
          { name: 'test', version: '1' },
          { versionNegotiation: { mode: { pin: version as '2026-07-28' } } },
        )
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
        await client.close()
        continue
      }
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
        }),
      })
      expect(
        ((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
        version,
      ).toBe(version)
    }
  })

  it('with PUBLIC_BASE_URL: a name from its host, absolute addresses on it, whatever Host says', async () => {
    // evil.example is listed so that the request passes the DNS-rebinding guard: an allowed Host is still never echoed.
    const other = await startTestServer({
      PUBLIC_BASE_URL: 'https://records.example.org/',
      ALLOWED_HOSTS: 'evil.example',
    })
    try {
      const serverJson = (await other.raw('/server.json', { headers: { host: 'evil.example' } })).body
      const card = (await other.raw('/.well-known/mcp/server-card.json')).body
      expect(serverJsonProblems(serverJson)).toEqual([])
      expect(serverCardProblems(card)).toEqual([])
      expect(serverJson).toMatchObject({
        name: 'org.example.records/reference-records',
        websiteUrl: 'https://records.example.org/docs',
        remotes: [{ type: 'streamable-http', url: 'https://records.example.org/mcp' }],
      })
      expect(card.remotes[0].url).toBe('https://records.example.org/mcp')
      expect((await other.get('/api/v1/?po_live=1')).body.links.server_card).toBe(
        'https://records.example.org/.well-known/mcp/server-card.json',
      )
      expect((await other.raw('/llms.txt')).text).toContain('[MCP endpoint](https://records.example.org/mcp)')
    } finally {
      await other.close()
    }
  })
})

describe('llms.txt', () => {
  it('counts the records per kind as the catalogue does, and lists the entry points', async () => {
    const text = (await server.raw('/llms.txt')).text
    const catalogue = (await server.get('/api/v1/?po_live=1')).body
    expect(text).toMatch(/^# Reference-Records\n\n> /)
    expect(text).toContain(`, ${catalogue.records.total} in all:`)
    for (const [kind, count] of Object.entries(catalogue.records.by_kind))
      expect(text).toMatch(new RegExp(`^- \`${kind}\` [^\\n]*: ${count}$`, 'm'))
    expect(text).toContain(`At most ${catalogue.limits.requests_per_minute} requests per minute per client`)
    expect(text).toContain('&match=best&po_live=1)')
    expect(text).toContain(catalogue.reuse.summary)
  })

  it('lists exactly the tools the MCP endpoint lists', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    const { tools } = await client.listTools()
    await client.close()
    const text = (await server.raw('/llms.txt')).text
    const listed = [...text.matchAll(/^- \[([\w-]+)\]\(\/docs#mcp-tool-protocol-server\)/gm)].map((m) => m[1])
    expect(listed).toEqual(tools.map((t) => t.name))
    expect(listed).toContain('search_facts')
  })
})

describe('the quota, spent', () => {
  it('refuses a document past the limit with 429, Retry-After and the error body', async () => {
    // 1: the test server reads the OpenAPI document once when it starts (counted).
    const strict = await startTestServer({ RATE_LIMIT_PER_MINUTE: '2' })
    try {
      expect((await strict.raw('/server.json')).status).toBe(200)
      const refused = await strict.raw('/llms.txt')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      expect(refused.body.error.code).toBe('rate_limited')
    } finally {
      await strict.close()
    }
  })
})
