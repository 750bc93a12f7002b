/**
 * The request metrics count every answer, whoever gives it — the front door, a mount (MCP), the fast
 * path, the framework, the HTTP parser's refusals — by route template, method and status, with a
 * duration histogram; and the quota's decisions, MCP tool calls, searches and snapshot loads. The
 * requests go through the real front door on in-memory connections (test/support/in-process.ts);
 * /metrics is read back and parsed. Both with the
 * completion log (answers counted when they finish) and without it (counted as they are ended).
 */
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { loadInProcess } from '../../src/core/snapshots/load-snapshot.js'
import { TOOL_NAMES } from '../../src/mcp/tool-calls.js'
import { createService, type Service } from '../../src/service/service.js'
import { exchange, send } from '../support/in-process.js'

const FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname
const RECORD = 'fait-643b555e754f953d'

/** The status `service` answers the raw request `head` with. */
const exchangeStatus = async (service: Service, head: string): Promise<number> =>
  Number(/^HTTP\/1\.1 (\d{3})/.exec((await exchange(service.app, head)).toString('latin1'))?.[1])

const request = async (
  service: Service,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
) => (await send(service.app, { method, target, headers, body })).status

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const toolCall = (service: Service, id: number, name: string, args: object) =>
  request(
    service,
    'POST',
    '/mcp',
    MCP_HEADERS,
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  )

type Sample = { name: string; labels: Record<string, string>; value: number }

/** The samples of a Prometheus text exposition (what a scraper reads), HELP and TYPE lines checked. */
function parseExposition(text: string): {
  samples: Sample[]
  help: Map<string, string>
  types: Map<string, string>
} {
  const samples: Sample[] = []
  const help = new Map<string, string>()
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line)
    if (comment !== null) {
      ;(comment[1] === 'HELP' ? help : types).set(comment[2]!, comment[3]!)
      continue
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (sample === null) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, name, value] of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[name!] = value!
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) })
  }
  return { samples, help, types }
}

async function scrape(service: Service) {
  const answer = await send(service.app, { target: '/metrics' })
  expect(answer.status).toBe(200)
  return parseExposition(answer.text)
}

/** The value of the one sample of `name` with these labels (0 when there is none). */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string>): number => {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )
  expect(found.length).toBeLessThanOrEqual(1)
  return found[0]?.value ?? 0
}
const requestsOf = (samples: Sample[], route: string, method: string, status: number) =>
  valueOf(samples, 'reference_records_http_requests_total', { route, method, status: String(status) })

const silentLog = () =>
  pino(
    { level: 'info' },
    new Writable({
      write(_chunk, _encoding, done) {
        done()
      },
    }),
  )

describe.each([
  { log: 'without the completion log', logger: undefined },
  { log: 'with the completion log', logger: silentLog },
])('request metrics, $log', ({ logger }) => {
  let service: Service
  let limited: Service
  beforeAll(async () => {
    const settings = { RECORDS_FILE: FIXTURE, LOG_LEVEL: logger === undefined ? 'silent' : 'info' }
    service = await createService(loadConfig({ ...settings, RATE_LIMIT_PER_MINUTE: '0' }), {
      load: loadInProcess,
      logger: logger?.(),
    })
    limited = await createService(loadConfig({ ...settings, RATE_LIMIT_PER_MINUTE: '3' }), {
      load: loadInProcess,
      logger: logger?.(),
    })
    // As listen() does: the framework's routes are compiled before the first request.
    await Promise.all([service.app.ready(), limited.app.ready()])
  })
  afterAll(async () => {
    await service?.close()
    await limited?.close()
  })

  it('counts answers by route template, method and status, whoever answered them', async () => {
    const before = (await scrape(service)).samples
    const statuses = [
      await request(service, 'GET', '/api/v1/facts?q=vitesse&po_live=1'), // the framework (first search)
      await request(service, 'GET', '/api/v1/facts?q=vitesse&po_live=1'), // the fast path (a kept answer)
      await request(service, 'GET', '/api/v1/facts?q=vitesse'), // the live-read redirect
      await request(service, 'GET', `/api/v1/facts/${RECORD}?po_live=1`),
      await request(service, 'HEAD', `/api/v1/facts/fait-0000000000000000?po_live=1`),
      await request(service, 'DELETE', '/api/v1/facts'),
      await request(service, 'GET', '/no/such/path'),
      await request(service, 'GET', '/api/v1'),
    ]
    expect(statuses).toEqual([200, 200, 307, 200, 404, 405, 404, 307])
    const after = (await scrape(service)).samples
    const delta = (route: string, method: string, status: number) =>
      requestsOf(after, route, method, status) - requestsOf(before, route, method, status)
    expect(delta('/api/v1/facts', 'GET', 200)).toBe(2)
    expect(delta('/api/v1/facts', 'GET', 307)).toBe(1)
    expect(delta('/api/v1/facts/{id}', 'GET', 200)).toBe(1)
    expect(delta('/api/v1/facts/{id}', 'HEAD', 404)).toBe(1)
    expect(delta('/api/v1/facts', 'DELETE', 405)).toBe(1)
    expect(delta('unmatched', 'GET', 404)).toBe(1)
    expect(delta('/api/v1', 'GET', 307)).toBe(1)
  })

  it('has a duration histogram by route, whose count is the route’s requests', async () => {
    await request(service, 'GET', '/api/v1/facts?q=permis&po_live=1')
    const { samples, types, help } = await scrape(service)
    const name = 'reference_records_http_request_duration_seconds'
    expect(types.get(name)).toBe('histogram')
    expect(help.get(name)).toMatch(/route/)
    const route = { route: '/api/v1/facts' }
    const count = valueOf(samples, `${name}_count`, route)
    const routeRequests = samples
      .filter((s) => s.name === 'reference_records_http_requests_total' && s.labels.route === route.route)
      .reduce((sum, s) => sum + s.value, 0)
    expect(count).toBeGreaterThan(0)
    expect(count).toBe(routeRequests)
    expect(valueOf(samples, `${name}_bucket`, { ...route, le: '+Inf' })).toBe(count)
    const buckets = samples
      .filter((s) => s.name === `${name}_bucket` && s.labels.route === route.route)
      .map((s) => s.value)
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b)) // cumulative
    expect(valueOf(samples, `${name}_sum`, route)).toBeGreaterThan(0)
  })

  it('labels hostile paths and methods with a fixed set of values', async () => {
    const routesBefore = new Set((await scrape(service)).samples.map((s) => s.labels.route))
    for (const path of ['/%3Cscript%3E', '/a'.repeat(200), '/api/v1/facts/x/y', '/api/v1/nope?q=1', '/mcp/x'])
      expect(await request(service, 'GET', path)).toBe(404)
    expect(await request(service, 'PROPFIND', '/api/v1/facts')).toBe(405)
    const { samples } = await scrape(service)
    const routes = new Set(samples.map((s) => s.labels.route))
    expect([...routes].filter((r) => !routesBefore.has(r) && r !== 'unmatched')).toEqual([])
    for (const s of samples.filter((s) => s.name === 'reference_records_http_requests_total')) {
      expect(s.labels.route).toMatch(/^(unmatched|\/[\w./{}-]*)$/)
      expect(s.labels.route).not.toContain('script')
      expect(s.labels.method).toMatch(/^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH|CONNECT|TRACE|other)$/)
    }
    expect(requestsOf(samples, '/api/v1/facts', 'other', 405)).toBe(1)
  })

  it('counts requests answered before the framework or outside it: the parser’s, the front door’s, the router’s', async () => {
    const before = (await scrape(service)).samples
    expect(
      await exchangeStatus(service, 'GET /api/v1/ HTTP/1.1\r\nhost: localhost\r\nbad header\r\n\r\n'),
    ).toBe(400)
    expect(
      await exchangeStatus(service, 'GET /api/v1/?po_live=1 HTTP/1.1\r\nconnection: close\r\n\r\n'),
    ).toBe(400)
    expect(await exchangeStatus(service, 'CONNECT x:443 HTTP/1.1\r\nhost: localhost\r\n\r\n')).toBe(405)
    expect(
      await exchangeStatus(
        service,
        'GET /api/v1/ HTTP/1.1\r\nhost: localhost\r\nexpect: x\r\nconnection: close\r\n\r\n',
      ),
    ).toBe(417)
    // Refused by the router itself (a path that is not validly percent-encoded), before any hook.
    expect(await request(service, 'GET', '/api/v1/facts/%ZZ?po_live=1')).toBe(400)
    // A preflight on a path the framework has no OPTIONS route for.
    expect(await request(service, 'OPTIONS', '/api/v1/facts', { origin: 'https://a.example' })).toBe(204)
    const after = (await scrape(service)).samples
    const delta = (route: string, method: string, status: number) =>
      requestsOf(after, route, method, status) - requestsOf(before, route, method, status)
    expect(delta('unmatched', 'other', 400)).toBe(1)
    expect(delta('/api/v1/', 'GET', 400)).toBe(1)
    expect(delta('unmatched', 'CONNECT', 405)).toBe(1)
    expect(delta('/api/v1/', 'GET', 417)).toBe(1)
    expect(delta('/api/v1/facts/{id}', 'GET', 400)).toBe(1)
    expect(delta('/api/v1/facts', 'OPTIONS', 204)).toBe(1)
  })

  it('counts the quota’s decisions by outcome and store, and its 429s by route', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push(await request(limited, 'GET', `/api/v1/facts/${RECORD}?po_live=1`))
    expect(statuses).toEqual([200, 200, 200, 429])
    // Not counted: the operational endpoints, a preflight.
    expect(await request(limited, 'GET', '/healthz')).toBe(200)
    const { samples } = await scrape(limited)
    const decisions = 'reference_records_quota_decisions_total'
    expect(valueOf(samples, decisions, { outcome: 'admitted', store: 'memory' })).toBe(3)
    expect(valueOf(samples, decisions, { outcome: 'refused', store: 'memory' })).toBe(1)
    expect(requestsOf(samples, '/api/v1/facts/{id}', 'GET', 429)).toBe(1)
    expect(requestsOf(samples, '/healthz', 'GET', 200)).toBe(1)
    // A refused MCP call is a request answered 429 on the mount's route, not a tool call.
    expect(await toolCall(limited, 1, 'search_facts', { q: 'vitesse' })).toBe(429)
    const then = (await scrape(limited)).samples
    expect(requestsOf(then, '/mcp', 'POST', 429)).toBe(1)
    expect(then.filter((s) => s.name === 'reference_records_mcp_tool_calls_total' && s.value > 0)).toEqual([])
  })

  it('counts MCP tool calls by tool and outcome, a kept answer like the SDK’s own', async () => {
    const calls = [
      await toolCall(service, 1, 'search_facts', { q: 'vitesse' }),
      await toolCall(service, 2, 'search_facts', { q: 'vitesse' }), // the kept answer
      await toolCall(service, 3, 'get_fact', { id: 'fait-0000000000000000' }), // isError: no such record
      await toolCall(service, 4, 'get_fact', { nope: 1 }), // refused arguments
      await toolCall(service, 5, '<script>alert(1)</script>', {}), // no such tool
    ]
    expect(calls).toEqual([200, 200, 200, 200, 200])
    const { samples } = await scrape(service)
    const name = 'reference_records_mcp_tool_calls_total'
    expect(valueOf(samples, name, { tool: 'search_facts', outcome: 'ok' })).toBe(2)
    expect(valueOf(samples, name, { tool: 'get_fact', outcome: 'error' })).toBe(1)
    expect(valueOf(samples, name, { tool: 'get_fact', outcome: 'invalid' })).toBe(1)
    expect(valueOf(samples, name, { tool: 'unknown', outcome: 'invalid' })).toBe(1)
    expect(samples.filter((s) => s.name === name).map((s) => s.labels.tool)).not.toContain(
      '<script>alert(1)</script>',
    )
    expect(requestsOf(samples, '/mcp', 'POST', 200)).toBe(5)
  })

  it('labels every tool the server lists by its name (TOOL_NAMES is complete)', async () => {
    const answer = await send(service.app, {
      method: 'POST',
      target: '/mcp',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    const listed = (answer.json() as { result: { tools: { name: string }[] } }).result.tools.map(
      (t) => t.name,
    )
    expect(listed.length).toBeGreaterThan(0)
    expect(new Set(listed)).toEqual(TOOL_NAMES)
  })

  it('times searches and counts those without results, by match mode; times the snapshot load', async () => {
    const before = (await scrape(service)).samples
    await request(service, 'GET', '/api/v1/facts?q=zzzzqqqxx&po_live=1')
    await request(service, 'GET', '/api/v1/facts?q=zzzzqqqxx&match=best&po_live=1')
    await request(service, 'GET', '/api/v1/facts?q=conduite&match=best&po_live=1')
    const { samples } = await scrape(service)
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(samples, name, labels) - valueOf(before, name, labels)
    expect(delta('reference_records_search_duration_seconds_count', { match: 'all' })).toBe(1)
    expect(delta('reference_records_search_duration_seconds_count', { match: 'best' })).toBe(2)
    expect(delta('reference_records_search_zero_results_total', { match: 'all' })).toBe(1)
    expect(delta('reference_records_search_zero_results_total', { match: 'best' })).toBe(1)
    const loads = { source: 'file', outcome: 'loaded' }
    expect(valueOf(samples, 'reference_records_snapshot_load_duration_seconds_count', loads)).toBe(1)
    expect(
      valueOf(samples, 'reference_records_snapshot_last_load_duration_seconds', { source: 'file' }),
    ).toBeGreaterThan(0)
  })

  it('gives every metric a HELP line, and durations in seconds', async () => {
    const { help, types } = await scrape(service)
    for (const name of types.keys()) expect(help.get(name), name).toMatch(/\S/)
    for (const name of [...types.keys()].filter((n) => n.includes('duration')))
      expect(name).toMatch(/_seconds$/)
    for (const [name, type] of types) if (type === 'counter') expect(name).toMatch(/_total$/)
  })
})
