/**
 * Prometheus metrics (GET /metrics). Each service owns its metrics: its own (quota, records,
 * snapshot) and Node's process metrics, whose observers `close()` stops, so that creating and
 * closing services (tests, embedders) leaves nothing running behind.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { startProcessMetrics } from './process-metrics.js'
import type { ToolCallOutcome } from '../mcp/tool-calls.js'
import { createRequestMetrics } from './request-metrics.js'
import { TalliedCounter, TalliedHistogram, type CounterCell } from './tallies.js'

const PREFIX = 'reference_records_'

/** A search over the 264 records takes tens of µs; over 100 000, a few ms. */
const SEARCH_DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
]
/** A snapshot of the sample loads in well under a second; 100 000 records take seconds. */
const SNAPSHOT_LOAD_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

/** Tool labels kept at most; the MCP adapter passes only its tools' names (or `unknown`) anyway. */
const MAX_TOOLS = 50

/** The quota store a decision came from, as labelled: the configured one, or this process's memory while Redis is down. */
export function storeLabel(kind: string): 'memory' | 'redis' | 'fallback' {
  return kind === 'memory' ? 'memory' : kind === 'redis' ? 'redis' : 'fallback'
}

export function createMetrics() {
  const registry = new Registry()
  const processMetrics = startProcessMetrics(PREFIX)
  const served: { publishedAtMs?: number; source: string } = { source: 'file' }
  const requests = createRequestMetrics(registry, PREFIX)

  const quotaDecisions = new TalliedCounter({
    name: `${PREFIX}quota_decisions_total`,
    help: 'Quota decisions on counted requests, by outcome (admitted, refused) and the store that decided (memory, redis, or fallback: this process while Redis is unavailable).',
    labelNames: ['outcome', 'store'],
    registers: [registry],
  })
  const decisionCells = new Map<string, { admitted: CounterCell; refused: CounterCell }>()
  const decisionCellsOf = (kind: string) => {
    let cells = decisionCells.get(kind)
    if (cells === undefined) {
      const store = storeLabel(kind)
      // One pair per label, whatever the kind's spelling.
      const same = [...decisionCells.entries()].find(([k]) => storeLabel(k) === store)?.[1]
      cells = same ?? {
        admitted: quotaDecisions.cell({ outcome: 'admitted', store }),
        refused: quotaDecisions.cell({ outcome: 'refused', store }),
      }
      decisionCells.set(kind, cells)
    }
    return cells
  }

  const toolCalls = new TalliedCounter({
    name: `${PREFIX}mcp_tool_calls_total`,
    help: 'MCP tools/call requests answered, by tool (`unknown` for a name no tool has) and outcome: ok, error (the tool answered isError or failed), invalid (refused arguments or tool, malformed call).',
    labelNames: ['tool', 'outcome'],
    registers: [registry],
  })
  const toolCells = new Map<string, Record<ToolCallOutcome, CounterCell>>()

  const searchDurations = new TalliedHistogram({
    name: `${PREFIX}search_duration_seconds`,
    help: 'Time to run a search with q (API, MCP tools, search page), by match mode (all, best); answers kept from an identical earlier search are not searched again.',
    labelNames: ['match'],
    buckets: SEARCH_DURATION_BUCKETS,
    registers: [registry],
  })
  const searchZero = new TalliedCounter({
    name: `${PREFIX}search_zero_results_total`,
    help: 'Searches with q that matched no record, by match mode (all, best); divide by search_duration_seconds_count for the share.',
    labelNames: ['match'],
    registers: [registry],
  })
  const searchSeries = {
    all: { duration: searchDurations.series({ match: 'all' }), zero: searchZero.cell({ match: 'all' }) },
    best: { duration: searchDurations.series({ match: 'best' }), zero: searchZero.cell({ match: 'best' }) },
  }

  return {
    registry,
    /** Counts one answered request (the HTTP adapter's RequestObserver). */
    requestCompleted: requests.observe,
    /** The cells counting quota decisions by the store's kind when it decided (RateLimitStore.kind). */
    quotaDecisionCells: decisionCellsOf,
    /** Makes the decision series of a quota store exist (at 0) before its first decision; with Redis, the fallback's too. */
    quotaStores(kind: string): void {
      decisionCellsOf(kind)
      if (storeLabel(kind) === 'redis') decisionCellsOf('fallback')
    },
    /** Counts one MCP tools/call; `tool` is one of the server's tools' names or `unknown`. */
    toolCall: (tool: string, outcome: ToolCallOutcome): void => {
      let cells = toolCells.get(tool)
      if (cells === undefined) {
        const label = toolCells.size < MAX_TOOLS ? tool : 'unknown'
        cells = toolCells.get(label) ?? {
          ok: toolCalls.cell({ tool: label, outcome: 'ok' }),
          error: toolCalls.cell({ tool: label, outcome: 'error' }),
          invalid: toolCalls.cell({ tool: label, outcome: 'invalid' }),
        }
        toolCells.set(label, cells)
      }
      cells[outcome].value++
    },
    /** Counts one search with q: its match mode, how long it took (seconds) and how many records matched. */
    searched(match: 'all' | 'best', seconds: number, total: number): void {
      const series = searchSeries[match]
      series.duration.observe(seconds)
      if (total === 0) series.zero.value++
    },
    snapshotLoads: new Histogram({
      name: `${PREFIX}snapshot_load_duration_seconds`,
      help: 'Time to load, validate and index a records snapshot (at start and on every reload), by source (file, postgres) and outcome (loaded, failed).',
      labelNames: ['source', 'outcome'],
      buckets: SNAPSHOT_LOAD_BUCKETS,
      registers: [registry],
    }),
    snapshotLastLoad: new Gauge({
      name: `${PREFIX}snapshot_last_load_duration_seconds`,
      help: 'Seconds the served snapshot took to load, validate and index; absent before the first load.',
      labelNames: ['source'],
      registers: [registry],
    }),
    /** Stops the process metrics' observers; the service calls it when it closes. */
    close(): void {
      processMetrics.stop()
      registry.clear()
    },
    /** The Prometheus text of this service's metrics and the process's. */
    exposition: async () => {
      const exposed = Registry.merge([processMetrics.registry, registry])
      return { contentType: exposed.contentType, body: await exposed.metrics() }
    },
    quotaRefused: new Counter({
      name: `${PREFIX}quota_refused_total`,
      help: 'Requests refused with 429 by the request quota.',
      registers: [registry],
    }),
    mcpKeptAnswers: new Counter({
      name: `${PREFIX}mcp_kept_answers_total`,
      help: 'MCP tools/call answers sent from an earlier identical call of the same snapshot (the SDK answered it first).',
      registers: [registry],
    }),
    /** Counted by the fast path itself (http/api-answers.ts), read at each scrape. */
    fastPathAnswers: new TalliedCounter({
      name: `${PREFIX}fast_path_answers_total`,
      help: 'Answers sent from prepared bodies by the fast path in front of the framework (records, searches answered before, catalogue, 304, 307, 429).',
      labelNames: [],
      registers: [registry],
    }).cell({}),
    quotaFallbacks: new Counter({
      name: `${PREFIX}quota_store_fallbacks_total`,
      help: 'Times the shared quota store (Redis) failed and this process switched to its in-memory window.',
      registers: [registry],
    }),
    quotaDegraded: new Gauge({
      name: `${PREFIX}quota_store_degraded`,
      help: '1 while this process counts requests in memory because the shared store (Redis) is unavailable.',
      registers: [registry],
    }),
    records: new Gauge({
      name: `${PREFIX}records`,
      help: 'Records in the served snapshot.',
      registers: [registry],
    }),
    // Labelled by source ("file" or "postgres") so that, before the first load, no series exists at
    // all (an unlabelled gauge would read 0, which looks like a fresh snapshot).
    snapshotId: new Gauge({
      name: `${PREFIX}snapshot_id`,
      help: 'Id of the served snapshot (PostgreSQL only); absent before the first load.',
      labelNames: ['source'],
      registers: [registry],
    }),
    snapshotPublished: new Gauge({
      name: `${PREFIX}snapshot_published_timestamp_seconds`,
      help: 'When the served snapshot was published (Unix time); absent before the first load.',
      labelNames: ['source'],
      registers: [registry],
    }),
    snapshotAge: new Gauge({
      name: `${PREFIX}snapshot_age_seconds`,
      help: 'Seconds since the served snapshot was published, at the time of the scrape; absent before the first load.',
      labelNames: ['source'],
      registers: [registry],
      collect() {
        if (served.publishedAtMs !== undefined)
          this.set({ source: served.source }, (Date.now() - served.publishedAtMs) / 1000)
      },
    }),
    sourceConnected: new Gauge({
      name: `${PREFIX}records_source_connected`,
      help: '1 while the records source is reachable (PostgreSQL: the LISTEN connection is up; a file: always 1), else 0.',
      registers: [registry],
    }),
    /** Sets the snapshot gauges to the snapshot now served. */
    serving(snapshot: { source: 'file' | 'postgres'; publishedAt: string; id?: number }): void {
      served.source = snapshot.source
      served.publishedAtMs = Date.parse(snapshot.publishedAt)
      this.snapshotPublished.set({ source: snapshot.source }, served.publishedAtMs / 1000)
      if (snapshot.id !== undefined) this.snapshotId.set({ source: snapshot.source }, snapshot.id)
    },
    recordsUpdatesRefused: new Counter({
      name: `${PREFIX}records_updates_refused_total`,
      help: 'Records updates (a changed file, a published snapshot) refused because they failed validation (the previous snapshot kept serving).',
      registers: [registry],
    }),
  }
}
export type Metrics = ReturnType<typeof createMetrics>
