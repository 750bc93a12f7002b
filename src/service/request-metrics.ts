/**
 * The request metrics: every answered request by route template, method and status, and its
 * duration by route. Fed by the HTTP adapter's completions (http/completions.ts) for every answer,
 * whoever gave it; counted in tallies (tallies.ts), so an answer costs a few map lookups and
 * increments. The label values are bounded whatever clients send: routes are templates (the HTTP
 * adapter never passes a raw path), methods outside the standard ones are `other`, and past
 * MAX_ROUTES a new route is counted as `unmatched` rather than adding series.
 */
import type { Registry } from 'prom-client'
import { TalliedCounter, TalliedHistogram, type CounterCell, type HistogramSeries } from './tallies.js'

/** Request durations: the fast path answers in well under a millisecond, a first search or an MCP call in a few. */
export const REQUEST_DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const

/** Methods labelled as themselves (RFC 9110's and PATCH); any other is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE'])
const OTHER_METHOD = 'other'
/** Far more than the service's routes (about 40): a bound that a bug passing raw paths would hit. */
const MAX_ROUTES = 200
const UNMATCHED = 'unmatched'

type RouteSeries = {
  route: string
  duration: HistogramSeries
  byMethod: Map<string, Map<number, CounterCell>>
}

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
  const routes = new Map<string, RouteSeries>()

  const routeSeries = (route: string): RouteSeries => {
    let series = routes.get(route)
    if (series === undefined) {
      if (routes.size >= MAX_ROUTES && route !== UNMATCHED) return routeSeries(UNMATCHED)
      series = { route, duration: durations.series({ route }), byMethod: new Map() }
      routes.set(route, series)
    }
    return series
  }

  /** Counts one answered request (see http/completions.ts RequestObserver). */
  const observe = (route: string, method: string, status: number, seconds: number): void => {
    const series = routeSeries(route)
    series.duration.observe(seconds)
    const label = METHODS.has(method) ? method : OTHER_METHOD
    let byStatus = series.byMethod.get(label)
    if (byStatus === undefined) series.byMethod.set(label, (byStatus = new Map()))
    let cell = byStatus.get(status)
    if (cell === undefined)
      byStatus.set(status, (cell = requests.cell({ route: series.route, method: label, status })))
    cell.value++
  }
  return { observe }
}
