/**
 * Prometheus metrics (GET /metrics). Each service owns its metrics: its own (quota, records,
 * snapshot) and Node's process metrics, whose observers `close()` stops, so that creating and
 * closing services (tests, embedders) leaves nothing running behind.
 */
import { Counter, Gauge, Registry } from 'prom-client'
import { startProcessMetrics } from './process-metrics.js'

const PREFIX = 'reference_records_'

export function createMetrics() {
  const registry = new Registry()
  const processMetrics = startProcessMetrics(PREFIX)
  const served: { publishedAtMs?: number; source: string } = { source: 'file' }
  return {
    registry,
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
    fastPathAnswers: new Counter({
      name: `${PREFIX}fast_path_answers_total`,
      help: 'Answers sent from prepared bodies by the fast path in front of the framework (records, searches answered before, catalogue, 304, 307, 429).',
      registers: [registry],
    }),
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
