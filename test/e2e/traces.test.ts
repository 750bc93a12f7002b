/**
 * OpenTelemetry traces (issue 44, item 4): with an OTLP endpoint set, the built service sends its
 * spans to a receiver in this process — one server span per request named by route template, one
 * per MCP tool call whose parent is the `traceparent` of the call's `_meta` — and exports the last
 * ones when SIGTERM drains it. Without an endpoint the OpenTelemetry packages are never loaded: the
 * service starts and answers with them made unresolvable.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpCall } from '../../bench/lib/mcp-mix.js'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js'
import { freePort } from '../support/ports.js'
import { listeningUrl, spawnCli } from '../support/spawn-service.js'
import { temporaryFiles } from '../support/temporary-files.js'

const RECORD = 'fait-643b555e754f953d'
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c'
const CLIENT_SPAN = 'b7ad6b7169203331'
const HEADER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const HEADER_SPAN = '00f067aa0ba902b7'

const files = temporaryFiles('traces-', 'mjs')
// A loader hook that makes every @opentelemetry package unresolvable, as if it were not installed.
const hooks = files.write(
  `export async function resolve(specifier, context, next) {
    if (specifier.startsWith('@opentelemetry/')) throw new Error('unresolvable in this test: ' + specifier)
    return next(specifier, context)
  }`,
)
const register = files.write(
  `import { register } from 'node:module'\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)})`,
)
const WITHOUT_OPENTELEMETRY = { NODE_OPTIONS: `--import=${register}` }
// Every module the service imports is resolved through the hook, on the loader's own thread, and a
// start with an endpoint loads the OpenTelemetry packages: starts a few times slower than a plain
// one, past 15 s on a loaded machine (load average 15). A guard against a hang, not a speed bound.
const SLOW_START_MS = 50_000
afterAll(() => rmSync(files.dir, { recursive: true, force: true }))

const serve = (env: Record<string, string>) =>
  spawnCli(['serve'], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env })

async function mcpToolCall(url: string, meta?: Record<string, string>) {
  const { headers, body } = mcpCall('modern', 7, { q: 'vitesse', limit: 3 })
  const message = JSON.parse(body) as { params: { _meta: Record<string, unknown> } }
  Object.assign(message.params._meta, meta)
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) })
  await res.text()
  return res.status
}

describe('without an OTLP endpoint', () => {
  it(
    'never loads OpenTelemetry: the service starts and answers with its packages unresolvable',
    async () => {
      const service = serve(WITHOUT_OPENTELEMETRY)
      try {
        const url = await listeningUrl(service, SLOW_START_MS)
        expect((await fetch(`${url}/api/v1/facts?q=vitesse&po_live=1`)).status).toBe(200)
        expect(await mcpToolCall(url, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` })).toBe(200)
      } finally {
        service.child.kill('SIGTERM')
      }
      expect(await service.exited).toBe(0)
    },
    2 * SLOW_START_MS,
  )

  it(
    '(the same hook stops a start that would load them: the check above can fail)',
    async () => {
      const port = await freePort()
      const service = serve({
        ...WITHOUT_OPENTELEMETRY,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      })
      expect(await service.exited).not.toBe(0)
      expect(service.stderr() + service.stdout()).toMatch(/unresolvable in this test: @opentelemetry\//)
    },
    2 * SLOW_START_MS,
  )
})

describe('with an OTLP endpoint', () => {
  let receiver: OtlpReceiver
  let spans: ReceivedSpan[]
  const statuses: Record<string, number> = {}

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    const service = serve({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'records-under-test',
      RATE_LIMIT_PER_MINUTE: '6',
    })
    try {
      const url = await listeningUrl(service, SLOW_START_MS)
      const get = async (path: string, headers: Record<string, string> = {}) =>
        (await fetch(url + path, { headers, redirect: 'manual' })).status
      statuses.search = await get('/api/v1/facts?q=vitesse&po_live=1', {
        traceparent: `00-${HEADER_TRACE}-${HEADER_SPAN}-01`,
      })
      statuses.record = await get(`/api/v1/facts/${RECORD}?po_live=1`)
      statuses.missing = await get('/api/v1/nothing-here?po_live=1')
      statuses.mcpTraced = await mcpToolCall(url, {
        traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
        tracestate: 'client=1',
      })
      statuses.mcpUntraced = await mcpToolCall(url)
      // The quota (6 a minute) is spent by now or soon: the next counted request is refused.
      for (let i = 0; i < 6 && statuses.refused !== 429; i++)
        statuses.refused = await get('/api/v1/?po_live=1')
    } finally {
      service.child.kill('SIGTERM')
    }
    // The spans still held at SIGTERM are exported while the service drains, before it exits.
    expect(await service.exited).toBe(0)
    spans = receiver.spans
  }, 2 * SLOW_START_MS)
  afterAll(() => receiver?.close())

  const named = (name: string) => spans.filter((s) => s.name === name)

  it('answered as the requests asked for', () => {
    expect(statuses).toEqual({
      search: 200,
      record: 200,
      missing: 404,
      mcpTraced: 200,
      mcpUntraced: 200,
      refused: 429,
    })
  })

  it('names the service and its version', () => {
    expect(spans.length).toBeGreaterThan(0)
    for (const span of spans) {
      expect(span.resource['service.name']).toBe('records-under-test')
      expect(span.resource['service.version']).toMatch(/^\d+\.\d+\.\d+/)
    }
  })

  it('gives each request one server span named by its route template, with the status and the quota outcome', () => {
    const [search] = named('GET /api/v1/facts')
    expect(search).toMatchObject({
      kind: 2,
      status: 0,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/v1/facts',
        'http.response.status_code': 200,
        'reference_records.quota.outcome': 'admitted',
        'reference_records.quota.store': 'memory',
      },
    })
    // Its parent is the caller's, from the traceparent header.
    expect(search).toMatchObject({ traceId: HEADER_TRACE, parentSpanId: HEADER_SPAN })

    const [record] = named('GET /api/v1/facts/{id}')
    expect(record?.attributes).toMatchObject({
      'http.route': '/api/v1/facts/{id}',
      'http.response.status_code': 200,
    })
    expect(record?.parentSpanId ?? '').toBe('') // no traceparent: a trace of its own
    // Never the raw path, in a name or an attribute.
    expect(JSON.stringify(spans)).not.toContain(RECORD)
    expect(JSON.stringify(spans)).not.toContain('nothing-here')
  })

  it('names a 404 by its method alone, without a route', () => {
    const missing = spans.filter((s) => s.attributes['http.response.status_code'] === 404)
    expect(missing).toHaveLength(1)
    expect(missing[0]).toMatchObject({ name: 'GET', kind: 2, status: 0 })
    expect(missing[0]!.attributes['http.route']).toBeUndefined()
  })

  it('marks the request the quota refused', () => {
    const refused = spans.filter((s) => s.attributes['http.response.status_code'] === 429)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({
      name: 'GET /api/v1/',
      attributes: { 'reference_records.quota.outcome': 'refused', 'http.route': '/api/v1/' },
    })
  })

  it("parents an MCP tool call's span on the traceparent of its _meta, linked to its request's span", () => {
    const calls = named('tools/call search_facts')
    expect(calls).toHaveLength(2)
    const traced = calls.find((s) => s.traceId === CLIENT_TRACE)!
    expect(traced).toMatchObject({
      kind: 2,
      status: 0,
      parentSpanId: CLIENT_SPAN,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'search_facts',
        'gen_ai.operation.name': 'execute_tool',
        'reference_records.mcp.outcome': 'ok',
      },
    })
    const requestSpans = named('POST /mcp')
    expect(requestSpans).toHaveLength(2)
    expect(requestSpans.map((s) => s.attributes['http.response.status_code'])).toEqual([200, 200])
    const carrier = requestSpans.find((s) => s.spanId === traced.links[0]?.spanId)
    expect(carrier, 'the link to the request span').toBeDefined()
    expect(traced.links).toEqual([{ traceId: carrier!.traceId, spanId: carrier!.spanId }])
    // Inside its request's time.
    expect(BigInt(traced.startTimeUnixNano)).toBe(BigInt(carrier!.startTimeUnixNano))
    expect(BigInt(traced.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(carrier!.endTimeUnixNano))

    // Without a traceparent in _meta, the call is a child of its request's span.
    const untraced = calls.find((s) => s !== traced)!
    const parent = requestSpans.find((s) => s.spanId === untraced.parentSpanId)
    expect(parent).toBeDefined()
    expect(untraced.traceId).toBe(parent!.traceId)
    expect(untraced.links).toEqual([])
  })
})
