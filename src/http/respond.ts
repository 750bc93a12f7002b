/**
 * Respond: how every answer leaves and is reported, whoever decided it (the front door, a mount, the
 * fast path, the framework, the server outside the parser). One writer of heads (`writeHead` with
 * one flat list of fields: the path's CORS and security fields, the request id and the quota's
 * fields, then the answer's own), one writer of refusals (the error body of the path, the same
 * fields, `Cache-Control: no-store`), and one report of each answered request: the `request
 * completed` log line and the request metrics, from the same figures.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Logger } from 'pino'
import { API_PREFIX } from '../core/api/schemas.js'
import type { ApiError } from '../core/errors.js'
import type { PreparedCors } from './cors.js'
import { renderError, type ErrorBodyRenderer } from './render-error.js'
import { statusOf } from './status.js'
import { requestCompleted } from './trace-channels.js'

/*
 * Answers
 *
 * Every answer goes out through Node's public `writeHead`, with one flat list of header fields
 * (name, value, …): the path's CORS and security fields, the request id and the quota's fields, in
 * the order the framework's hooks set them, then the answer's own fields; then the body.
 */

/** An answer's own fields, flat (name, value, …). */
export type Fields = { readonly flat: readonly string[] }

/**
 * An answer ready to send: its fields as name, value, name, value… in the order they go out (the
 * flat form Node's writeHead processes fastest) and joined as a head; no body for a 304 (or a HEAD).
 * Answers of prepared bodies are shared: never changed once made.
 */
export type Answer = { readonly status: number; readonly fields: Fields; readonly body: Buffer | undefined }

/** What every answer to an admitted request carries: its id and, when it was counted, the quota's fields. */
export type Admitted = {
  readonly id: string
  readonly quota?: { readonly policy: string; readonly remaining: string }
}

/** A response body, whole or in pieces sent one after the other. */
type Body = Buffer | readonly Buffer[] | undefined

/** `flat` as Fields. */
export const fieldsOf = (flat: readonly string[]): Fields => ({ flat })

/** Ends `res` with `body` (its head set): pieces are written one after the other (corked by Node until the end). */
function endWith(res: ServerResponse, body: Body): void {
  if (body === undefined || Buffer.isBuffer(body)) return void res.end(body)
  const last = body.length - 1
  for (let i = 0; i < last; i++) res.write(body[i])
  res.end(body[last])
}

export type AnswerWriter = (
  res: ServerResponse,
  status: number,
  fields: Fields,
  body: Body,
  admitted: Admitted,
) => void

/** The one place the request id and the quota's fields are named, as fields set one by one (a stream, the framework). */
export function admittedFields(admitted: Admitted): Record<string, string> {
  const { id, quota } = admitted
  return quota === undefined
    ? { 'x-request-id': id }
    : { 'x-request-id': id, 'ratelimit-policy': quota.policy, ratelimit: quota.remaining }
}

/** A writer for one path's answers, its CORS and security fields flattened once. */
export function answerWriter(cors: PreparedCors): AnswerWriter {
  const corsFields = Object.entries(cors.response).flat()
  return (res, status, fields, body, { id, quota }) => {
    // Filled in place, at its final length: this runs for every answer of the path.
    const own = fields.flat
    const head = new Array<string>(corsFields.length + (quota === undefined ? 2 : 6) + own.length)
    let at = 0
    for (const field of corsFields) head[at++] = field
    head[at++] = 'x-request-id'
    head[at++] = id
    if (quota !== undefined) {
      head[at++] = 'ratelimit-policy'
      head[at++] = quota.policy
      head[at++] = 'ratelimit'
      head[at++] = quota.remaining
    }
    for (const field of own) head[at++] = field
    res.writeHead(status, head)
    endWith(res, body) // no body goes out for a HEAD: Node knows the method
  }
}

/*
 * Refusals
 *
 * Error answers written without the framework: by the front door (a target that is not a path, no
 * Host, shutting down), a mount (in its own error body), the fast path (the quota's 429), the server
 * outside the parser (an unmet Expect, CONNECT) and on a bare socket (the HTTP parser refused the
 * request). They carry what every error carries — the error body of the path, its CORS and security
 * headers, `Cache-Control: no-store` — so a browser can read them and no client sees a bare status.
 */

export type ErrorAnswer = { status: number; headers: Record<string, string>; body: Buffer }

/**
 * The answer to `err` on a path with these CORS headers, as renderError (render-error.ts) decides it,
 * framed for a writer outside the framework; `rendered` is a mount's own error body, the contract's
 * when absent.
 */
export function errorAnswer(
  err: ApiError,
  cors: PreparedCors,
  rendered?: object,
  extra: Record<string, string> = {},
): ErrorAnswer {
  const { status, fields, body } = renderError(err, rendered === undefined ? undefined : { rendered })
  const headers = { ...cors.response, ...extra, ...fields, 'content-length': String(body.length) }
  return { status, headers, body }
}

export type Refusal = {
  readonly error: ApiError
  readonly cors: PreparedCors
  readonly admitted: Admitted
  /** A mount's error body renderer; the contract's body when absent. */
  readonly render?: ErrorBodyRenderer
  /** The refused request, when nothing has read its body: the renderer may (MCP echoes the JSON-RPC id). */
  readonly req?: IncomingMessage
  /** Fields of this refusal only (`Connection: close` while draining). */
  readonly extra?: Record<string, string>
  /** A HEAD: the head alone goes out. */
  readonly head?: boolean
}

/** The one writer of refusals on a response object (the request was parsed; Node frames the response). */
export function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  const { error, cors, admitted, render, req, extra, head } = refusal
  const write = (body?: object) => {
    const answer = errorAnswer(error, cors, body, { ...admittedFields(admitted), ...extra })
    res.writeHead(answer.status, answer.headers)
    res.end(head === true ? undefined : answer.body)
  }
  if (render === undefined) return write()
  void renderErrorBody(error, render, req).then(write, () => write())
}

/** A mount's error body for `err`; see ErrorBodyRenderer for `req`. A renderer that throws rejects. */
async function renderErrorBody(
  err: ApiError,
  render: ErrorBodyRenderer,
  req?: IncomingMessage,
): Promise<object> {
  return render(err, statusOf(err), req)
}

/** The bytes of an answer for a bare socket, closing the connection (the request could not be parsed). */
export function rawAnswer(answer: ErrorAnswer): Buffer {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n`
  for (const [name, value] of Object.entries({ ...answer.headers, connection: 'close' }))
    head += `${name}: ${value}\r\n`
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), answer.body])
}

/*
 * Completions
 *
 * Where every answered request is reported, whoever answered it — the front door's own refusals, a
 * mount (MCP), the fast path, the framework, the server's answers outside the parser (CONNECT, an
 * unmet Expect) and the parser's refusals: one `request completed` log line (below) and one
 * observation for the request metrics, from the same figures. Every place that answers calls this
 * module and nothing else, so a new one cannot log without counting or count without logging.
 *
 * Routes are labelled by template (docs/operations.md "Metrics"): the framework's route with its
 * parameters written `{name}` as in the OpenAPI document, a mount's path, or `unmatched` for a
 * request no route serves (an unknown path, a target that is not a path): never the raw path, so
 * that hostile paths cannot make new series.
 */

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

/*
 * Request tallies
 *
 * The request metrics as plain numbers, counted here for every answer whoever gave it, and handed
 * to prom-client only when /metrics is scraped (service/request-metrics.ts makes each series the
 * first time its labels are seen, service/tallies.ts exposes them). The label values are bounded
 * whatever clients send: routes are templates (never a raw path), methods outside the standard
 * ones are `other`, and past MAX_ROUTES a new route is counted as `unmatched` rather than adding
 * series.
 */

/** One labelled series of a counter: add to `value`. */
export type CounterCell = { value: number }

/** One labelled series of a histogram, counted in plain numbers (exposed by service/tallies.ts at each scrape). */
export class HistogramSeries {
  /** Observations per bucket: counts[i] ≤ bounds[i] (and above the one before); the last is +Inf. */
  readonly counts: Float64Array
  sum = 0
  count = 0

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1)
  }

  observe(value: number): void {
    const bounds = this.bounds
    let i = 0
    while (i < bounds.length && value > bounds[i]!) i++ // Prometheus buckets are `le`: inclusive
    this.counts[i]!++
    this.sum += value
    this.count++
  }
}

/** Makes the series of a label set, the first time it is seen (the exposition's). */
export type RequestSeriesMaker = {
  duration(route: string): HistogramSeries
  count(route: string, method: string, status: number): CounterCell
}

/** Methods labelled as themselves (RFC 9110's and PATCH); any other is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE'])
const OTHER_METHOD = 'other'
/** Far more than the service's routes (about 40): a bound that a bug passing raw paths would hit. */
const MAX_ROUTES = 200

type RouteSeries = {
  route: string
  duration: HistogramSeries
  byMethod: Map<string, Map<number, CounterCell>>
}

/** Counts answered requests by route, method and status, and their durations by route. */
export function requestTallies(make: RequestSeriesMaker): RequestObserver {
  const routes = new Map<string, RouteSeries>()
  const routeSeries = (route: string): RouteSeries => {
    let series = routes.get(route)
    if (series === undefined) {
      if (routes.size >= MAX_ROUTES && route !== UNMATCHED_ROUTE) return routeSeries(UNMATCHED_ROUTE)
      series = { route, duration: make.duration(route), byMethod: new Map() }
      routes.set(route, series)
    }
    return series
  }
  return (route, method, status, seconds) => {
    const series = routeSeries(route)
    series.duration.observe(seconds)
    const label = METHODS.has(method) ? method : OTHER_METHOD
    let byStatus = series.byMethod.get(label)
    if (byStatus === undefined) series.byMethod.set(label, (byStatus = new Map()))
    let cell = byStatus.get(status)
    if (cell === undefined) byStatus.set(status, (cell = make.count(series.route, label, status)))
    cell.value++
  }
}

/*
 * The completion log
 *
 * What the HTTP adapter writes in the logs about a request. A client's address is never written in
 * clear: it is replaced by a keyed hash, enough to follow one client without keeping a personal
 * datum in the logs.
 */

/** A short keyed hash of an address (HMAC-SHA-256, 12 hex digits). */
function hashClient(address: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 12)
}

/** Logs one request's completion: the request, its answer, how long it took. */
export type CompletionLog = (entry: {
  id: string
  method: string
  url: string
  address: string | undefined
  status: number
  /** How long the answer took, in ms. */
  ms: number
}) => void

/** Addresses hashed recently: an HMAC per request was a measurable share of the hot path, and clients repeat. */
const MAX_HASHED = 10_000

/**
 * One `request completed` line per request, at info, with what an operator needs: the request id,
 * method, target, the client's keyed hash, the status and the time taken. Undefined when info lines
 * are not written, so a caller skips even the bookkeeping. Every answer is reported through
 * the completions above, which write this line, so every request is one line of the same shape.
 */
export function completionLog(logger: Logger, hashKey: string | undefined): CompletionLog | undefined {
  if (!logger.isLevelEnabled('info')) return undefined
  const key = hashKey ?? randomBytes(32)
  const hashed = new Map<string, string>()
  const clientOf = (address: string | undefined) => {
    const a = address ?? ''
    let hash = hashed.get(a)
    if (hash === undefined) {
      if (hashed.size >= MAX_HASHED) hashed.clear()
      hashed.set(a, (hash = hashClient(a, key)))
    }
    return hash
  }
  return ({ id, method, url, address, status, ms }) =>
    logger.info(
      {
        reqId: id,
        req: { method, url, client: clientOf(address) },
        res: { statusCode: status },
        responseTime: Number(ms.toFixed(3)),
      },
      'request completed',
    )
}
