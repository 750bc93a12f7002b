/**
 * How long one request to each endpoint holds the serving thread. The service runs in this process
 * on a records file; the requests come from a prober (bench/lib/request-prober.ts), a small process
 * forked **before** the records are loaded, told over IPC what to send: forking a client per
 * request from a process holding gigabytes stalls the loop by itself (603 ms seen on `/healthz`).
 *
 * For each address, the first request after the snapshot is served (the one that used to build
 * documents), then the same request again, each measured by a TurnMonitor (bench/lib/turn-monitor.ts):
 * the largest event-loop delay, and the serving thread's own CPU time in its longest turn. Before
 * each first request an idle window of the same prober (it only waits) gives the noise of the
 * machine at that moment: what the loop delay is when the service does nothing.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { loadConfig } from '../../src/config.js'
import { publicationIdOf } from '../../src/core/changes/snapshot-changes.js'
import { startServer } from '../../src/service/service.js'
import type { ProbeAnswer, ProbeOrder } from './request-prober.js'
import { TurnMonitor, type TurnFigures } from './turn-monitor.js'

export type Probe = {
  /** How the table names it. */
  name: string
  path: string
  gzip?: true
  /** A JSON-RPC call to the MCP endpoint (POST), instead of a GET of `path`. */
  mcp?: { method: string; params: unknown }
}

type Stall = {
  name: string
  status: number
  bytes: number
  /** The first request's time to its last byte, in ms. */
  ms: number
  first: TurnFigures
  again: TurnFigures
  /** The idle window just before the first request: the machine's noise then. */
  idle: TurnFigures
  error?: string
}

export type StallRun = {
  records: string
  readyMs: number
  /** Load averages (1 min) at the start and at the end of the probes. */
  load: { start: number; end: number }
  stalls: Stall[]
}

/** Replaced in a probe's path by the served snapshot's publication id (the change feed's `since`). */
const PUBLICATION = '{publication}'

const mcpCall = (name: string, method: string, params: unknown): Probe => ({
  name,
  path: '/mcp',
  mcp: { method, params },
})

const BROAD_WORDS = encodeURIComponent(
  'code route conduite vehicule article conducteur vitesse apprentissage',
)

/**
 * Every address a client can reach without a key, with the record `id`: the API (search first,
 * then another query, then the first again, which the cache answers), the pages, the feeds, the
 * discovery documents, both downloads, and the MCP endpoint's tools and resources.
 */
export const probes = (id: string): Probe[] => [
  { name: '/healthz', path: '/healthz' },
  { name: '/readyz', path: '/readyz' },
  { name: '/api/v1/ (catalogue)', path: '/api/v1/?po_live=1' },
  { name: '/api/v1/openapi.json', path: '/api/v1/openapi.json?po_live=1' },
  { name: 'search `q=permis`, first of the snapshot', path: '/api/v1/facts?q=permis&po_live=1' },
  { name: 'search `q=vitesse`, a second query', path: '/api/v1/facts?q=vitesse&limit=50&po_live=1' },
  { name: 'search `q=permis`, kept answer', path: '/api/v1/facts?q=permis&po_live=1' },
  {
    name: 'search, 8 words `match=best`',
    path: '/api/v1/facts?q=vitesse%20limitation%20agglomeration%20jeune%20conducteur%20alcool%20nuit%20autoroute&match=best&po_live=1',
  },
  // Eight of the broadest words: 47 860 matches at 1 000 000 records, each checked against every
  // group (its evaluation is sliced, docs/search-internals.md section 4); another page, which the
  // response cache does not hold, is the same search warm.
  { name: 'search, 8 broad words `match=all`', path: `/api/v1/facts?q=${BROAD_WORDS}&po_live=1` },
  { name: 'the same, another page (warm)', path: `/api/v1/facts?q=${BROAD_WORDS}&offset=10&po_live=1` },
  { name: 'the same, `match=best`', path: `/api/v1/facts?q=${BROAD_WORDS}&match=best&po_live=1` },
  { name: 'listing `kind=organization`', path: '/api/v1/facts?kind=organization&limit=50&po_live=1' },
  { name: 'listing `region=france`, offset 5000', path: '/api/v1/facts?region=france&offset=5000&po_live=1' },
  { name: 'search `q=code&kind=lesson`', path: '/api/v1/facts?q=code&kind=lesson&po_live=1' },
  { name: '/api/v1/facts/{id}', path: `/api/v1/facts/${id}?po_live=1` },
  { name: '/api/v1/facts.ndjson', path: '/api/v1/facts.ndjson' },
  { name: '/api/v1/facts.ndjson, gzip', path: '/api/v1/facts.ndjson', gzip: true },
  { name: '/api/v1/changes', path: `/api/v1/changes?since=${PUBLICATION}&po_live=1` },
  { name: '/changes.atom', path: '/changes.atom' },
  { name: '/sitemap.xml', path: '/sitemap.xml' },
  { name: '/sitemaps/1.xml', path: '/sitemaps/1.xml' },
  { name: '/catalog.jsonld (DCAT)', path: '/catalog.jsonld' },
  { name: '/llms.txt', path: '/llms.txt' },
  { name: '/robots.txt', path: '/robots.txt' },
  { name: '/server.json', path: '/server.json' },
  { name: '/.well-known/mcp/server-card.json', path: '/.well-known/mcp/server-card.json' },
  { name: '/ (home page)', path: '/' },
  { name: '/recherche?q=permis', path: '/recherche?q=permis' },
  { name: '/recherche, `kind=offer`, page 3', path: '/recherche?kind=offer&page=3' },
  { name: '/fiches/{id}', path: `/fiches/${id}` },
  { name: '/docs', path: '/docs' },
  { name: '/docs/search', path: '/docs/search' },
  { name: '/reference', path: '/reference' },
  { name: '/metrics', path: '/metrics' },
  mcpCall('MCP `tools/list`', 'tools/list', {}),
  mcpCall('MCP `search_facts`', 'tools/call', {
    name: 'search_facts',
    arguments: { q: 'permis probatoire', limit: 50 },
  }),
  mcpCall('MCP `search`', 'tools/call', { name: 'search', arguments: { query: 'stationnement gênant' } }),
  mcpCall('MCP `get_fact`', 'tools/call', { name: 'get_fact', arguments: { id } }),
  mcpCall('MCP `fetch`', 'tools/call', { name: 'fetch', arguments: { id } }),
  mcpCall('MCP `get_catalogue`', 'tools/call', { name: 'get_catalogue', arguments: {} }),
  mcpCall('MCP `resources/list`', 'resources/list', {}),
]

/** The prober process, and one order at a time to it. */
class Prober {
  readonly #child: ChildProcess
  readonly #ready: Promise<void>
  #pending: ((answer: ProbeAnswer) => void) | undefined

  constructor() {
    this.#child = fork(new URL('./request-prober.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.#ready = new Promise((resolve, reject) => {
      this.#child.once('error', reject)
      this.#child.once('exit', (code) => reject(new Error(`the prober exited (${code}) before it was ready`)))
      this.#child.once('message', () => resolve())
    })
    this.#child.on('message', (answer: ProbeAnswer) => {
      const pending = this.#pending
      this.#pending = undefined
      pending?.(answer)
    })
  }

  ready(): Promise<void> {
    return this.#ready
  }

  send(order: ProbeOrder): Promise<ProbeAnswer> {
    if (this.#pending !== undefined) throw new Error('Prober: one order at a time')
    return new Promise((resolve) => {
      this.#pending = resolve
      this.#child.send(order)
    })
  }

  close(): void {
    this.#child.kill()
  }
}

const IDLE_WINDOW_MS = 300

function orderFor(base: string, probe: Probe): ProbeOrder {
  const headers: Record<string, string> = probe.gzip ? { 'accept-encoding': 'gzip' } : {}
  if (probe.mcp === undefined) return { kind: 'request', url: base + probe.path, method: 'GET', headers }
  return {
    kind: 'request',
    url: base + probe.path,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...probe.mcp }),
  }
}

/**
 * Starts the prober, then the service on `file` (with a public base URL, so that the sitemap and
 * the feed are served, and no quota), measures every probe, stops both.
 */
export async function measureStalls(file: string, list: Probe[]): Promise<StallRun> {
  const prober = new Prober()
  try {
    await prober.ready()
    const loadAtStart = loadavg()[0]!
    const started = performance.now()
    const server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        RECORDS_FILE: file,
        PUBLIC_BASE_URL: 'https://records.example',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '0',
      }),
    )
    try {
      const readyMs = performance.now() - started
      const monitor = new TurnMonitor()
      const measured = async (order: ProbeOrder) => {
        monitor.start()
        const answer = await prober.send(order)
        return { answer, figures: monitor.stop() }
      }
      const stalls: Stall[] = []
      for (const probe of list) {
        const idle = await measured({ kind: 'idle', ms: IDLE_WINDOW_MS })
        const publication = publicationIdOf(server.records.current!)
        const order = orderFor(server.url, { ...probe, path: probe.path.replace(PUBLICATION, publication) })
        const first = await measured(order)
        const again = await measured(order)
        stalls.push({
          name: probe.name,
          status: first.answer.status,
          bytes: first.answer.bytes,
          ms: first.answer.ms,
          first: first.figures,
          again: again.figures,
          idle: idle.figures,
          ...(first.answer.error === undefined ? {} : { error: first.answer.error }),
        })
      }
      return { records: file, readyMs, load: { start: loadAtStart, end: loadavg()[0]! }, stalls }
    } finally {
      await server.close()
    }
  } finally {
    prober.close()
  }
}

/** The run as a Markdown table: the figures docs/scale.md quotes. */
export function stallTable(run: StallRun): string {
  const ms = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(n < 10 ? 1 : 0))
  const rows = run.stalls.map(
    (s) =>
      `| ${s.name} | ${s.status}${s.error === undefined ? '' : ` (${s.error})`} | ${ms(s.first.loopDelayMs)} / ${ms(s.again.loopDelayMs)} | ${ms(s.first.turnCpuMs)} / ${ms(s.again.turnCpuMs)} | ${ms(s.first.cpuMs)} | ${ms(s.idle.loopDelayMs)} | ${(s.ms / 1000).toFixed(2)} s |`,
  )
  return [
    '| Endpoint | Status | Loop delay, first / repeat (ms) | Longest turn CPU, first / repeat (ms) | Thread CPU, first (ms) | Idle loop delay before (ms) | First answer |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}
