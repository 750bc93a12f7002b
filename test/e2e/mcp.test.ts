/**
 * The MCP server with real SDK clients: the current SDK (v2) in both protocol eras, the v1 SDK's
 * client (2025 initialize handshake), over HTTP and over stdio (spawned process); quota sharing.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { spawn } from 'node:child_process'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI } from '../support/spawn-service.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const ajv = new Ajv2020({ strict: false })
addFormats(ajv)

type AnyClient = {
  connect(t: unknown): Promise<void>
  close(): Promise<void>
  listTools(): Promise<{ tools: any[] }>
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<any>
  readResource(p: { uri: string }): Promise<any>
  listResources(params?: { cursor: string }): Promise<{ resources: any[]; nextCursor?: string }>
  listResourceTemplates(): Promise<{ resourceTemplates: any[] }>
  getServerCapabilities():
    { tools?: { listChanged?: boolean }; resources?: { listChanged?: boolean } } | undefined
}

const FACT_ID = 'fait-fab1ae2fa3566c3d' // the probationary alcohol rule of the fixture

/** The same checks for every client and transport. */
function describeMcpClient(name: string, connect: () => Promise<AnyClient>) {
  describe(name, () => {
    let client: AnyClient
    beforeAll(async () => {
      client = await connect()
    })
    afterAll(() => client?.close())

    it('announces no list-change notifications: a stateless server never sends them', () => {
      const capabilities = client.getServerCapabilities()!
      expect(capabilities.tools).toBeDefined()
      expect(capabilities.resources).toBeDefined()
      expect(capabilities.tools!.listChanged ?? false).toBe(false)
      expect(capabilities.resources!.listChanged ?? false).toBe(false)
    })

    it('lists five read-only tools, the three of its own with output schemas', async () => {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual([
        'fetch',
        'get_catalogue',
        'get_fact',
        'search',
        'search_facts',
      ])
      for (const tool of tools) {
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
        if (!['search', 'fetch'].includes(tool.name)) expect(tool.outputSchema?.type).toBe('object')
      }
      const search = tools.find((t) => t.name === 'search_facts')!
      expect(search.inputSchema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 })
      // Its name says "facts"; its description says first that it searches every kind.
      expect(search.description).toMatch(/^Search every kind of record, not only official rules/)
    })

    it('calls each tool; structured outputs validate against the declared output schemas', async () => {
      const { tools } = await client.listTools()
      const schemaOf = (tool: string) => tools.find((t) => t.name === tool)!.outputSchema
      const calls: [string, Record<string, unknown>][] = [
        ['search_facts', { q: "l'alcoolémie", kind: 'fact' }],
        ['get_fact', { id: FACT_ID }],
        ['get_catalogue', {}],
      ]
      for (const [tool, args] of calls) {
        const result = await client.callTool({ name: tool, arguments: args })
        expect(result.isError, tool).toBeFalsy()
        const valid = ajv.validate(schemaOf(tool), result.structuredContent)
        expect(valid, `${tool}: ${ajv.errorsText()}`).toBe(true)
        expect(result.content[0].type).toBe('text')
      }
      const search = await client.callTool({
        name: 'search_facts',
        arguments: { q: "l'alcoolémie", kind: 'fact' },
      })
      expect(search.structuredContent.results.map((r: { id: string }) => r.id)).toEqual([FACT_ID])
    })

    it('renders an official rule with its link, sources, verification date and attribution', async () => {
      const result = await client.callTool({ name: 'get_fact', arguments: { id: FACT_ID } })
      const text: string = result.content[0].text
      expect(text).toMatch(/^# Taux d'alcoolémie du permis probatoire/)
      expect(text).toContain('Kind: Official rule')
      expect(text).toContain('Link: https://code-et-conduite.example/alcoolemie-permis-probatoire')
      expect(text).toMatch(
        /Official sources:\n {2}- Code de la route, article R234-1 — https:\/\/www\.legifrance\.gouv\.fr\//,
      )
      expect(text).toContain('Verified against the official text on 2026-09-15')
      expect(text).toContain(
        "Source : Taux d'alcoolémie du permis probatoire — https://code-et-conduite.example/alcoolemie-permis-probatoire",
      )
      const lesson = await client.callTool({ name: 'search_facts', arguments: { q: 'priorité droite' } })
      expect(lesson.content[0].text).toContain('Status: leçon (explication), pas une règle officielle')
    })

    it("answers ChatGPT's search and fetch in their exact shapes", async () => {
      const search = await client.callTool({ name: 'search', arguments: { query: "l'alcoolémie" } })
      expect(search.content).toHaveLength(1)
      expect(search.content[0].type).toBe('text')
      const found = JSON.parse(search.content[0].text)
      expect(Object.keys(found)).toEqual(['results'])
      expect(found.results[0]).toEqual({
        id: FACT_ID,
        title: "Taux d'alcoolémie du permis probatoire",
        url: expect.stringMatching(new RegExp(`(/fiches/${FACT_ID}|alcoolemie-permis-probatoire)$`)),
      })
      const fetched = await client.callTool({ name: 'fetch', arguments: { id: found.results[0].id } })
      expect(fetched.content).toHaveLength(1)
      const doc = JSON.parse(fetched.content[0].text)
      expect(Object.keys(doc)).toEqual(['id', 'title', 'text', 'url', 'metadata'])
      expect(doc.url).toBe(found.results[0].url)
      expect(doc.metadata).toMatchObject({
        kind: 'fact',
        status: 'official_rule',
        verified_at: '2026-09-15',
        original_url: 'https://code-et-conduite.example/alcoolemie-permis-probatoire',
      })
      expect(doc.metadata.official_sources[0]).toEqual({
        label: 'Code de la route, article R234-1',
        url: expect.stringMatching(/^https:\/\/www\.legifrance\.gouv\.fr\//),
      })
      expect(doc.metadata.attribution).toBe(
        "Source : Taux d'alcoolémie du permis probatoire — https://code-et-conduite.example/alcoolemie-permis-probatoire",
      )
    })

    it('matches best by default: a word no record holds with the others is left out, and said to be', async () => {
      const best = await client.callTool({
        name: 'search_facts',
        arguments: { q: 'est-ce que la priorité alcoolémie' },
      })
      const text: string = best.content[0].text
      expect(best.structuredContent.total).toBe(1)
      expect(best.structuredContent.interpretation.left_out).toHaveLength(1)
      expect(text).toMatch(
        /No record holds every required word: the first 1 hold "(priorité|alcoolémie)", not "(priorité|alcoolémie)"/,
      )
      expect(text).toMatch(/Lacks: "(priorité|alcoolémie)"\./)
    })

    it('says how q was read and, when nothing matches with match "all", which queries would', async () => {
      const none = await client.callTool({
        name: 'search_facts',
        arguments: { q: 'est-ce que la priorité alcoolémie', match: 'all' },
      })
      const text: string = none.content[0].text
      expect(text).toContain('Required words: "priorité", "alcoolémie".')
      expect(text).toContain('Ignored (stop or question words): "est", "ce", "que", "la".')
      expect(text).toContain(
        'Queries that would match: q="alcoolémie" (1 record(s), without "priorité"); q="priorité" (1 record(s), without "alcoolémie").',
      )
      expect(none.structuredContent.interpretation.relaxed).toHaveLength(2)
    })

    it('answers bad arguments with a tool error naming the argument, without structured content', async () => {
      for (const [args, argument] of [
        [{ limit: 99 }, 'limit'],
        [{ kind: 'rule' }, 'kind'],
        [{ q: 'x'.repeat(301) }, 'q'],
        [{ kinds: 'fact' }, 'kinds'],
      ] as const) {
        const result = await client.callTool({ name: 'search_facts', arguments: args })
        expect(result.isError, JSON.stringify(args)).toBe(true)
        expect(result.structuredContent).toBeUndefined()
        expect(result.content[0].text).toContain(argument)
      }
      const badId = await client.callTool({ name: 'get_fact', arguments: { id: 'nope' } })
      expect(badId.isError).toBe(true)
      expect(badId.content[0].text).toMatch(/id/)
    })

    it('answers an unknown id with a tool error and a hint', async () => {
      const result = await client.callTool({ name: 'get_fact', arguments: { id: 'fait-0000000000000000' } })
      expect(result).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'No record with id "fait-0000000000000000": it may have been withdrawn. Find ids with search_facts.',
          },
        ],
      })
      expect(result.structuredContent).toBeUndefined()
    })

    it('exposes every record and the catalogue as resources', async () => {
      const { resourceTemplates } = await client.listResourceTemplates()
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['reference-records://facts/{id}'])
      const { resources } = await client.listResources()
      expect(resources.map((r) => r.uri)).toContain(`reference-records://facts/${FACT_ID}`)
      expect(resources.map((r) => r.uri)).toContain('reference-records://catalogue')
      expect(resources[0]!.uri).toBe('reference-records://guide')
      const read = await client.readResource({ uri: `reference-records://facts/${FACT_ID}` })
      expect(JSON.parse(read.contents[0].text).id).toBe(FACT_ID)
      const catalogue = await client.readResource({ uri: 'reference-records://catalogue' })
      expect(JSON.parse(catalogue.contents[0].text).records.total).toBe(13)
      await expect(
        client.readResource({ uri: 'reference-records://facts/fait-0000000000000000' }),
      ).rejects.toThrow(/not found/i)
    })
  })
}

describe('MCP over Streamable HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    // The CORS test below calls from another site's page, as it would a public deployment: listed for the
    // DNS-rebinding guard, which refuses a foreign Origin on a loopback Host otherwise.
    server = await startTestServer({ ALLOWED_HOSTS: 'agent.example' })
  })
  afterAll(() => server.close())
  const url = () => new URL(`${server.url}/mcp`)

  describeMcpClient('current SDK, 2025 era (initialize)', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(url()))
    return client as unknown as AnyClient
  })
  describeMcpClient('current SDK, 2026-07-28 era', async () => {
    const client = new Client(
      { name: 'test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await client.connect(new StreamableHTTPClientTransport(url()))
    return client as unknown as AnyClient
  })
  describeMcpClient('v1 SDK client', async () => {
    const client = new V1Client({ name: 'test', version: '1' })
    await client.connect(new V1HttpTransport(url()))
    return client as unknown as AnyClient
  })

  it('answers GET and DELETE /mcp as a stateless server does (405), and PUT with our 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await server.raw('/mcp', { method, headers: { accept: 'text/event-stream' } })
      expect(res.status, method).toBe(405)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    }
    const put = await server.raw('/mcp', { method: 'PUT' })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('POST, OPTIONS')
    expect(put.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { data: { status: 405, code: 'method_not_allowed' } },
    })
  })

  it('answers in JSON, not a stream, in both protocol eras', async () => {
    const post = (body: object, headers: Record<string, string> = {}) =>
      server.raw('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      })
    const initialize = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    expect(initialize.status).toBe(200)
    expect(initialize.headers.get('content-type')).toMatch(/^application\/json/)
    expect(initialize.body.result.serverInfo.name).toBe('reference-records')
    const call = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_fact', arguments: { id: FACT_ID } },
    })
    expect(call.headers.get('content-type')).toMatch(/^application\/json/)
    expect(call.body.result.structuredContent.id).toBe(FACT_ID)
  })

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const res = await server.raw('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", "id": 1,',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(-32700)
  })

  it('allows the MCP request headers and POST in CORS preflight, and exposes the rate-limit fields', async () => {
    const res = await server.raw('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase()
    for (const h of ['content-type', 'mcp-protocol-version', 'mcp-session-id']) expect(allowed).toContain(h)
    const post = await server.raw('/mcp', {
      method: 'POST',
      headers: {
        origin: 'https://agent.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(post.headers.get('access-control-allow-origin')).toBe('*')
    expect(post.headers.get('access-control-expose-headers')).toMatch(/Retry-After.*RateLimit/)
    expect(post.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/)
  })

  it('refuses a JSON-RPC batch before any call runs, counting the POST once', async () => {
    const remaining = async () =>
      Number(/r=(\d+)/.exec((await fetch(`${server.url}/api/v1/?po_live=1`)).headers.get('ratelimit')!)![1])
    const before = await remaining()
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'search_facts', arguments: { q: `mot${i} vitesse`, limit: 50 } },
    }))
    const res = await server.raw('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(batch),
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/^Invalid Request: JSON-RPC batches are not served/),
      },
    })
    // The batch's POST and our own read of the count.
    expect(await remaining()).toBe(before - 2)
    expect((await server.raw('/healthz')).status).toBe(200)
  })

  it('is linked from the catalogue', async () => {
    expect((await server.get('/api/v1/?po_live=1')).body.links.mcp).toBe('/mcp')
  })

  it('gives honest cache hints in the 2026-07-28 era: public, and at most five minutes from the publication', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    }
    const cases: [string, Record<string, unknown>][] = [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: `reference-records://facts/${FACT_ID}` }],
      ['server/discover', {}],
    ]
    const published = Date.parse((await server.get('/api/v1/?po_live=1')).body.updated_at)
    const hint = (at: number) => Math.min(300_000, Math.floor((at - published) / 10))
    for (const [method, params] of cases) {
      const before = Date.now()
      const res = await server.raw('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
      })
      expect(res.status, method).toBe(200)
      // A tenth of the time since the publication (the fixture file's time: it has no published_at), at most five minutes.
      expect({ method, cacheScope: res.body.result.cacheScope }).toEqual({ method, cacheScope: 'public' })
      expect(res.body.result.ttlMs, method).toBeGreaterThanOrEqual(hint(before))
      expect(res.body.result.ttlMs, method).toBeLessThanOrEqual(hint(Date.now()))
    }
  })
})

describe('MCP and the API share one quota', () => {
  it('refuses the next call on either once one address spent its budget across both', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '12' }) // its start spent 1 (OpenAPI document)
    try {
      for (let i = 0; i < 5; i++)
        expect((await fetch(`${server.url}/api/v1/facts?po_live=1`)).status).toBe(200)
      const client = new Client(
        { name: 'test', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      )
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
      let calls = 0
      let refusal: Error | undefined
      while (refusal === undefined && calls < 20) {
        await client.callTool({ name: 'get_catalogue', arguments: {} }).then(
          () => calls++,
          (err: Error) => (refusal = err),
        )
      }
      // 12 - 1 - 5 = 6 requests left for MCP: the client's one request when it connects, then 5 tool calls
      expect(calls).toBe(5)
      expect(refusal!.message).toMatch(/Error POSTing to endpoint: .*"retry_after_seconds":\d+/)
      expect(refusal!.message).toMatch(/retry in \d+ s/)
      const asked = Date.now()
      const api = await fetch(`${server.url}/api/v1/facts?po_live=1`)
      expect(api.status).toBe(429)
      const retryAfter = Number(api.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      const mcp = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
      })
      expect(mcp.status).toBe(429)
      // The same window, read a moment later: the same wait, or less by the seconds that passed between
      // the two reads (under load they may straddle a second; issue 31).
      const mcpRetryAfter = Number(mcp.headers.get('retry-after'))
      expect(mcpRetryAfter).toBeLessThanOrEqual(retryAfter)
      expect(mcpRetryAfter).toBeGreaterThanOrEqual(
        Math.max(1, retryAfter - Math.ceil((Date.now() - asked) / 1000)),
      )
      const refused = await mcp.json()
      expect(refused.id).toBe(7) // the request's own id, so the client knows which request was refused
      expect(refused.error.data).toEqual({
        status: 429,
        code: 'rate_limited',
        retry_after_seconds: mcpRetryAfter,
      })
      await client.close()
    } finally {
      await server.close()
    }
  })
})

describe('MCP over stdio (reference-records mcp)', () => {
  describeMcpClient('records file, current SDK', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--records-file', SMALL_FIXTURE],
        stderr: 'ignore',
      }),
    )
    return client as unknown as AnyClient
  })

  describe('remote API through the reference client', () => {
    let server: TestServer
    beforeAll(async () => {
      server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1000' })
    })
    afterAll(() => server.close())

    it('reads the remote records and draws from the remote quota', async () => {
      const remaining = async () =>
        Number(/r=(\d+)/.exec((await fetch(`${server.url}/api/v1/?po_live=1`)).headers.get('ratelimit')!)![1])
      const before = await remaining()
      const client = new Client({ name: 'test', version: '1' })
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'mcp', '--base-url', `${server.url}/api/v1`],
          stderr: 'ignore',
        }),
      )
      const result = await client.callTool({ name: 'get_fact', arguments: { id: FACT_ID } })
      expect((result.structuredContent as { id: string }).id).toBe(FACT_ID)
      const missing = await client.callTool({ name: 'get_fact', arguments: { id: 'fait-0000000000000000' } })
      expect(missing.isError).toBe(true)
      await client.close()
      // two tool calls, two API requests (plus our own read of the catalogue, and the server's when the
      // client connects: its instructions describe the records)
      expect(await remaining()).toBe(before - 4)
    })

    it('answers requests piped in before its stdin ended, then exits; a line that is not JSON gets a parse error', async () => {
      const requests = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'pipe', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'get_fact', arguments: { id: FACT_ID } },
        },
      ]
      const input = `${requests.map((r) => JSON.stringify(r)).join('\n')}\nnot json\n`
      // Spawned, not spawnSync: the test server answers from this process's event loop.
      const child = spawn(process.execPath, [CLI, 'mcp', '--base-url', `${server.url}/api/v1`], {
        stdio: ['pipe', 'pipe', 'ignore'],
      })
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
      child.stdin.end(input)
      const status = await new Promise<number | null>((resolve) => child.on('exit', resolve))
      const run = { status, stdout }
      expect(run.status).toBe(0)
      const answers = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: unknown; result?: any; error?: any })
      expect(answers.map((a) => a.id).sort()).toEqual([1, 2, null])
      expect(answers.find((a) => a.id === 2)!.result.structuredContent.id).toBe(FACT_ID)
      expect(answers.find((a) => a.id === null)!.error.code).toBe(-32700)
    })
  })
})

describe('resources/list, paged (the bundled sample: more records than one page)', () => {
  const SAMPLE = new URL('../../data/records.json', import.meta.url).pathname
  const PAGE_SIZE = 50
  let server: TestServer
  let ids: string[]
  beforeAll(async () => {
    server = await startTestServer({ RECORDS_FILE: SAMPLE, RATE_LIMIT_PER_MINUTE: '1000' })
    ids = (await server.raw('/api/v1/facts.ndjson')).text
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id)
  })
  afterAll(() => server.close())

  const OWN = ['reference-records://guide', 'reference-records://catalogue']
  /** Every record exactly once, in listing order, and the guide and the catalogue once. */
  const expectEveryRecordOnce = (uris: string[]) => {
    expect(ids.length).toBeGreaterThan(PAGE_SIZE * 2)
    for (const own of OWN) expect(uris.filter((u) => u === own)).toHaveLength(1)
    expect(uris.filter((u) => !OWN.includes(u))).toEqual(ids.map((id) => `reference-records://facts/${id}`))
  }
  const stdioClient = async (args: string[]) => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'ignore' }),
    )
    return client
  }

  it('over HTTP: pages of 50 records, the catalogue first, a nextCursor to each next page, every record once', async () => {
    const client = new V1Client({ name: 'test', version: '1' })
    await client.connect(new V1HttpTransport(new URL(`${server.url}/mcp`)))
    try {
      const pages: { resources: { uri: string }[]; nextCursor?: string }[] = []
      let cursor: string | undefined
      do {
        const page = await client.listResources(cursor === undefined ? undefined : { cursor })
        pages.push(page)
        cursor = page.nextCursor
      } while (cursor !== undefined && pages.length <= 20)
      expect(pages).toHaveLength(Math.ceil(ids.length / PAGE_SIZE))
      expect(pages[0]!.resources.slice(0, 2).map((r) => r.uri)).toEqual(OWN)
      expect(pages.map((p) => p.resources.length)).toEqual(
        pages.map((_, i) => Math.min(PAGE_SIZE, ids.length - i * PAGE_SIZE) + (i === 0 ? 2 : 0)),
      )
      expectEveryRecordOnce(pages.flatMap((p) => p.resources.map((r) => r.uri)))
      await expect(client.listResources({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 })
    } finally {
      await client.close()
    }
  })

  it('over HTTP, the current SDK client walks the pages itself', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      expectEveryRecordOnce((await client.listResources()).resources.map((r) => r.uri))
    } finally {
      await client.close()
    }
  })

  it('over stdio, from the records file and through the remote API alike; remotely a page is one API request', async () => {
    const local = await stdioClient(['--records-file', SAMPLE])
    try {
      expectEveryRecordOnce((await local.listResources()).resources.map((r) => r.uri))
    } finally {
      await local.close()
    }
    const remaining = async () =>
      Number(/r=(\d+)/.exec((await fetch(`${server.url}/api/v1/?po_live=1`)).headers.get('ratelimit')!)![1])
    const remote = await stdioClient(['--base-url', `${server.url}/api/v1`])
    try {
      const before = await remaining()
      expectEveryRecordOnce((await remote.listResources()).resources.map((r) => r.uri))
      // one API request per page, plus our own read of the remaining count
      expect(await remaining()).toBe(before - Math.ceil(ids.length / PAGE_SIZE) - 1)
    } finally {
      await remote.close()
    }
  })
})
