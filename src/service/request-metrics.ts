/**
 * The request metrics' exposition: every answered request by route template, method and status,
 * and its duration by route. Counted by the HTTP adapter for every answer, whoever gave it
 * (http/respond.ts, requestTallies: a few map lookups and increments); the series are made here the
 * first time their labels are seen and handed to prom-client at each scrape (tallies.ts).
 */
import type { Registry } from 'prom-client'
import { requestTallies } from '../http/respond.js'
import { TalliedCounter, TalliedHistogram } from './tallies.js'

/** Request durations: the fast path answers in well under a millisecond, a first search or an MCP call in a few. */
export const REQUEST_DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const

export function createRequestMetrics(registry: Registry, prefix: string) {
  const requests = new TalliedCounter({
    name: `${prefix}http_requests_total`,
    help: 'HTTP requests answered, by route template (`unmatched` when no route serves the path), method (`other` beyond the standard ones) and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  })
  const durations = new TalliedHistogram({
    name: `${prefix}http_request_duration_seconds`,
    help: 'Time from a request reaching the server to its answer being written, by route template.',
    labelNames: ['route'],
    buckets: REQUEST_DURATION_BUCKETS,
    registers: [registry],
  })
  /** Counts one answered request (see http/respond.ts RequestObserver). */
  const observe = requestTallies({
    duration: (route) => durations.series({ route }),
    count: (route, method, status) => requests.cell({ route, method, status }),
  })
  return { observe }
}
