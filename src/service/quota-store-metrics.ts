/**
 * The shared quota store's state in /metrics, beside the gauge and counter that metrics.ts already
 * has (`quota_store_degraded`, `quota_store_fallbacks_total`): every transition each way, and each
 * failed call by reason, so that an operator sees slow or lost answers before they become an outage.
 */
import { Counter, type Registry } from 'prom-client'
import type { FailureReason } from '../core/quota/failover-store.js'

const PREFIX = 'reference_records_'

export function createQuotaStoreMetrics(registry: Registry) {
  const transitions = new Counter({
    name: `${PREFIX}quota_store_transitions_total`,
    help: 'Changes of the shared quota store (Redis) state in this process: to="unavailable" (counting in memory, within the outage share) or to="shared" (counting in Redis again).',
    labelNames: ['to'],
    registers: [registry],
  })
  const failures = new Counter({
    name: `${PREFIX}quota_store_failures_total`,
    help: 'Calls to the shared quota store (Redis) that failed, by reason: disconnected, refused, unanswered (no answer within REDIS_TIMEOUT_MS of loop-free waiting). Three in a row declare it unavailable.',
    labelNames: ['reason'],
    registers: [registry],
  })
  // Every series exists from the start, at 0, so that rate() and alerts see the first increase.
  for (const to of ['unavailable', 'shared']) transitions.inc({ to }, 0)
  for (const reason of ['disconnected', 'refused', 'unanswered'] satisfies FailureReason[])
    failures.inc({ reason }, 0)
  return {
    unavailable: () => transitions.inc({ to: 'unavailable' }),
    shared: () => transitions.inc({ to: 'shared' }),
    failed: (reason: FailureReason) => failures.inc({ reason }),
  }
}
