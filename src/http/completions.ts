/**
 * Where every answered request is reported, whoever answered it — the front door's own refusals, a
 * mount (MCP), the fast path, the framework, the server's answers outside the parser (CONNECT, an
 * unmet Expect) and the parser's refusals: one `request completed` log line (logging.ts) and one
 * observation for the request metrics, from the same figures. Every place that answers calls this
 * module and nothing else, so a new one cannot log without counting or count without logging.
 *
 * Routes are labelled by template (docs/operations.md "Metrics"): the framework's route with its
 * parameters written `{name}` as in the OpenAPI document, a mount's path, or `unmatched` for a
 * request no route serves (an unknown path, a target that is not a path): never the raw path, so
 * that hostile paths cannot make new series.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { API_PREFIX } from '../core/api/schemas.js'
import type { CompletionLog } from './logging.js'
import { requestCompleted } from './trace-channels.js'

/** The route label of a request that no route serves. */
export const UNMATCHED_ROUTE = 'unmatched'

/** Told of every answered request: its route template, method, status and duration in seconds. */
export type RequestObserver = (route: string, method: string, status: number, seconds: number) => void

/** The templates of the live reads the fast path answers, as the framework's routes are labelled. */
const LIVE_READ_TEMPLATES = {
  search: `${API_PREFIX}/facts`,
  record: `${API_PREFIX}/facts/{id}`,
  openapi: `${API_PREFIX}/openapi.json`,
} as const

const STARTED_AT = Symbol('reference-records.startedAt')
type StampedRequest = IncomingMessage & { [STARTED_AT]?: number }

/** Stamps the time `req` reached the server (the front door does, before anything else). */
export function markStarted(req: IncomingMessage): void {
  ;(req as StampedRequest)[STARTED_AT] = performance.now()
}

/** Writes a framework route's `:param` as `{param}`, as the OpenAPI document does; once per route. */
const templates = new Map<string, string>()
function templateOf(url: string): string {
  let template = templates.get(url)
  if (template === undefined) templates.set(url, (template = url.replace(/:(\w+)/g, '{$1}')))
  return template
}

export type Completions = {
  /** The route label of a live read the fast path answers (`route` from liveReadRoute, `path` its path). */
  liveReadRoute(route: keyof typeof LIVE_READ_TEMPLATES | 'catalogue', path: string): string
  /** The route label of `path` for an answer given before any routing (the front door's, the server's). */
  routeOfPath(path: string): string
  /** The route label of the framework's route (its registered url), or unmatched for the not-found handler. */
  routeOfFramework(url: string | undefined): string
  /** `res` was just ended by the caller: counted now, logged once it finishes. */
  ended(req: IncomingMessage, res: ServerResponse, route: string, id: string): void
  /** `res` is answered later, or by someone else: counted and logged once it finishes. */
  whenFinished(req: IncomingMessage, res: ServerResponse, route: string, id: string): void
  /** An answer the framework finished (its onResponse hook): `address` as it resolved it. */
  finished(req: IncomingMessage, status: number, route: string, id: string, address: string | undefined): void
  /** An answer written on the bare socket (CONNECT, a request the parser refused): counted, not logged. */
  raw(method: string | undefined, route: string, status: number, startedAt: number): void
  /** Whether anything is reported at all (no log at info, no metrics: the hooks are not even added). */
  readonly active: boolean
}

export function createCompletions(deps: {
  log: CompletionLog | undefined
  observe: RequestObserver | undefined
  /** The client's address as the log writes it (front-door.ts). */
  clients: { address(req: IncomingMessage): string | undefined }
  /** The route label of a path, from the route table (route-table.ts); undefined when no address matches. */
  templateOfPath(path: string): string | undefined
}): Completions {
  const { log, observe, clients } = deps
  const msSince = (req: IncomingMessage, now: number) => now - ((req as StampedRequest)[STARTED_AT] ?? now)

  const report = (
    req: IncomingMessage,
    status: number,
    route: string,
    id: string,
    address: string | undefined,
    ms: number,
  ) => {
    observe?.(route, req.method ?? '', status, ms / 1000)
    if (requestCompleted.hasSubscribers) requestCompleted.publish({ request: req, route, status })
    log?.({ id, method: req.method!, url: req.url!, address, status, ms })
  }
  const whenFinished = (req: IncomingMessage, res: ServerResponse, route: string, id: string) => {
    if (log === undefined && observe === undefined) return
    res.once('finish', () =>
      report(
        req,
        res.statusCode,
        route,
        id,
        log === undefined ? undefined : clients.address(req),
        msSince(req, performance.now()),
      ),
    )
  }

  return {
    active: log !== undefined || observe !== undefined,
    liveReadRoute: (route, path) => (route === 'catalogue' ? path : LIVE_READ_TEMPLATES[route]),
    routeOfPath: (path) => deps.templateOfPath(path) ?? UNMATCHED_ROUTE,
    routeOfFramework: (url) => (url === undefined ? UNMATCHED_ROUTE : templateOf(url)),
    ended(req, res, route, id) {
      // With the log, both wait for the end, so the line and the metric agree; without it, no
      // listener per answer (the fast path's answers are whole once `end` returns).
      if (log !== undefined) return whenFinished(req, res, route, id)
      observe?.(route, req.method ?? '', res.statusCode, msSince(req, performance.now()) / 1000)
      if (requestCompleted.hasSubscribers)
        requestCompleted.publish({ request: req, route, status: res.statusCode })
    },
    whenFinished,
    finished(req, status, route, id, address) {
      report(req, status, route, id, address, msSince(req, performance.now()))
    },
    raw(method, route, status, startedAt) {
      observe?.(route, method ?? '', status, (performance.now() - startedAt) / 1000)
    },
  }
}
