/** Prometheus metrics (GET /metrics). One registry per service instance, so tests can run several. */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'

export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'reference_records_' })
  return {
    registry,
    quotaRefused: new Counter({ name: 'reference_records_quota_refused_total', help: 'Requests refused with 429 by the request quota.', registers: [registry] }),
    quotaFallbacks: new Counter({
      name: 'reference_records_quota_store_fallbacks_total',
      help: 'Times the shared quota store (Redis) failed and this process switched to its in-memory window.',
      registers: [registry],
    }),
    quotaDegraded: new Gauge({
      name: 'reference_records_quota_store_degraded',
      help: '1 while this process counts requests in memory because the shared store (Redis) is unavailable.',
      registers: [registry],
    }),
    records: new Gauge({ name: 'reference_records_records', help: 'Records in the served snapshot.', registers: [registry] }),
    recordsUpdatesRefused: new Counter({
      name: 'reference_records_records_updates_refused_total',
      help: 'Records updates refused because they failed validation (the previous snapshot kept serving).',
      registers: [registry],
    }),
  }
}
export type Metrics = ReturnType<typeof createMetrics>
