/**
 * How every request is admitted, decided once, by one function, whatever answers it afterwards (the
 * fast path or the framework): the path's CORS and security fields, the request id, the quota (and
 * its fields), the bound on the target's length, the preflight, the 405 of a method the address
 * does not take, the live-read redirect, and the 503 of a mount that reads records before the first
 * snapshot — all read from the route table's one reading of the path (route-table.ts), kept on the
 * admission with its route. The front door calls `admit` for each request and keeps the result on it; the fast path and the framework's one hook (app.ts) only apply
 * it. Connection-level refusals (a target that is not a path, a missing Host, a drain) come before,
 * in the front door; a target holding a fragment is refused there too, but counted here
 * (`admit.unreadable`).
 */
import type { IncomingMessage } from 'node:http'
import { currentSnapshot } from '../core/api/reader.js'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import type { Decision, Quota } from '../core/quota/quota.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { Answer, CounterCell } from './respond.js'
import type { PreparedCors } from './cors.js'
import { HttpRefusal, MethodRefusal } from './status.js'
import { quotaDecided } from './trace-channels.js'
import type { Addressed, Route, RouteTable } from './route-table.js'

/**
 * A request target as the front door normalised it (front-door.ts): `path` starts with "/", `query`
 * excludes the "?" (undefined without one), `url` is both as the rest of the service reads them.
 */
export type Target = { readonly path: string; readonly query: string | undefined; readonly url: string }

/** Longest request target accepted. A legitimate one is far shorter (q is at most 300 characters, ~3.6 KB encoded). */
const MAX_URL_LENGTH = 8_192

/** What was decided instead of a handler's answer, if anything. */
type Outcome =
  { kind: 'preflight' } | { kind: 'refusal'; error: ApiError } | { kind: 'redirect'; answer: Answer }

export type Admission = {
  readonly id: string
  /** The address of the route table the path matched (route-table.ts); undefined for none. */
  readonly route?: Route
  readonly cors: PreparedCors
  /** The quota's fields (RateLimit-Policy, RateLimit), when the request was counted. */
  readonly quota?: { readonly policy: string; readonly remaining: string }
  readonly outcome?: Outcome
  /**
   * The fields of the site's 404 page at the path, as the route table gives them (route-table.ts):
   * for the not-found handler, when a browser prefers a page to the JSON 404.
   */
  readonly notFoundPage?: PreparedCors
}

export type AdmissionDeps = {
  /** Every address: what counts, each path's CORS, the methods each takes, the live reads, the mounts. */
  routes: RouteTable
  quota: Quota | undefined
  /** The quota key of the request's client (front-door.ts). */
  clients: { key(req: IncomingMessage): string }
  requestId(req: IncomingMessage): string
  records: LiveRecords
  /** The 307 to the live read of a request target (api-answers.ts). */
  answers: { redirect(url: string): Answer }
  /** The DNS-rebinding guard (host-guard.ts), when the service listens on a loopback address. */
  hostGuard?: (req: IncomingMessage, checksOrigin: boolean) => ApiError | undefined
  onQuotaRefused(): void
  /** Counts every decision the quota made (metrics). */
  quotaTally?: QuotaTally
  /** Told of a fault in deciding (a bug): the request is answered 500, and the operator must see why. */
  onFault(err: unknown, requestId: string): void
}

export type Admit = ((req: IncomingMessage, target: Target) => Admission | Promise<Admission>) & {
  /**
   * The admission of a request whose target cannot be read as an address (it holds a fragment):
   * refused with `error` in the API's terms whatever its path, and counted, so that no spelling of
   * a counted address escapes the quota by guessing which route the text before the `#` names.
   */
  unreadable(req: IncomingMessage, error: ApiError): Admission | Promise<Admission>
}

const ADMISSION = Symbol('reference-records.admission')
type AdmittedRequest = IncomingMessage & { [ADMISSION]?: Admission }

/** The admission `admit` decided for `req`, once the front door kept it. */
export const admissionOf = (req: IncomingMessage): Admission | undefined =>
  (req as AdmittedRequest)[ADMISSION]
export const keepAdmission = (req: IncomingMessage, admission: Admission): void =>
  void ((req as AdmittedRequest)[ADMISSION] = admission)

/** The cells counting a quota's decisions made by one kind of store (RateLimitStore.kind). */
export type QuotaTally = (storeKind: string) => { admitted: CounterCell; refused: CounterCell }

export function createAdmission(deps: AdmissionDeps): Admit {
  const fields = deps.quota === undefined ? undefined : rateLimitFields(deps.quota)
  // The store's kind is read at each decision: a Redis store reports its fallback while Redis is down.
  let tallied: { kind: string; cells: ReturnType<QuotaTally> } | undefined
  const tally = (allowed: boolean) => {
    const kind = deps.quota!.store.kind
    if (tallied?.kind !== kind) tallied = { kind, cells: deps.quotaTally!(kind) }
    ;(allowed ? tallied.cells.admitted : tallied.cells.refused).value++
  }

  /** What follows the quota's decision (undefined: not counted). */
  const decide = (
    req: IncomingMessage,
    target: Target,
    id: string,
    addressed: Addressed,
    decision: Decision | undefined,
  ): Admission => {
    const { route, cors, notFoundPage } = addressed
    const quota =
      decision === undefined ? undefined : { policy: fields!.policy, remaining: fields!.remaining(decision) }
    if (decision !== undefined && deps.quotaTally !== undefined) tally(decision.allowed)
    if (decision !== undefined && quotaDecided.hasSubscribers)
      quotaDecided.publish({ request: req, allowed: decision.allowed })
    if (decision !== undefined && !decision.allowed) {
      deps.onQuotaRefused()
      return { id, route, cors, quota, outcome: { kind: 'refusal', error: deps.quota!.refusal(decision) } }
    }
    // Counted like any other refusal of the path (docs/contract.md "Quota").
    const misaddressed = deps.hostGuard?.(req, route?.mount !== undefined)
    if (misaddressed !== undefined)
      return { id, route, cors, quota, outcome: { kind: 'refusal', error: misaddressed } }
    if (target.url.length > MAX_URL_LENGTH) {
      return {
        id,
        route,
        cors,
        quota,
        outcome: {
          kind: 'refusal',
          error: new HttpRefusal(
            414,
            `Request URL is ${target.url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`,
          ),
        },
      }
    }
    const method = req.method ?? ''
    if (refusesMethod(route, method, target.path)) {
      const error = new MethodRefusal(method, route!.url, route!.allow)
      return { id, route, cors, outcome: { kind: 'refusal', error } }
    }
    // The redirect reads nothing but the target (docs/contract.md "Live-read redirect"): before any check of the parameters.
    if (
      (method === 'GET' || method === 'HEAD') &&
      route?.liveRead !== undefined &&
      !mentionsPoLive(target.query)
    ) {
      return {
        id,
        route,
        cors,
        quota,
        outcome: { kind: 'redirect', answer: deps.answers.redirect(target.url) },
      }
    }
    // A mount that reads the records is refused before the first snapshot; the API's operations and the
    // pages refuse it themselves, when they read the snapshot (the OpenAPI document and the guides need none).
    if (route?.mount?.readsRecords === true && deps.records.current === undefined) {
      try {
        currentSnapshot(deps.records)
      } catch (err) {
        return { id, route, cors, quota, outcome: { kind: 'refusal', error: err as ApiError } }
      }
    }
    return quota === undefined ? { id, route, cors, notFoundPage } : { id, route, cors, quota, notFoundPage }
  }

  /** Whether the path's address does not take `method` (405): nothing is served, so nothing is counted. */
  const refusesMethod = (route: Route | undefined, method: string, path: string) =>
    // A path the router cannot decode is its 400 (FST_ERR_BAD_URL) before any 405: counted as such.
    route !== undefined && !deps.routes.allows(route, method) && decodable(path)

  const admit = (req: IncomingMessage, target: Target): Admission | Promise<Admission> => {
    const addressed = deps.routes.lookup(target.path)
    const { route, counted, cors } = addressed
    const id = deps.requestId(req)
    // A preflight is answered for any path (docs/contract.md "Methods": OPTIONS → 204), never counted;
    // but not for a page that must not drive this service (a rebinding page's preflight).
    if (req.method === 'OPTIONS') {
      const misaddressed = deps.hostGuard?.(req, route?.mount !== undefined)
      if (misaddressed !== undefined)
        return { id, route, cors, outcome: { kind: 'refusal', error: misaddressed } }
      return { id, route, cors, outcome: { kind: 'preflight' } }
    }
    const quota = deps.quota
    // Every request to a counted address counts (docs/contract.md "Quota"), but one the path refuses (405).
    if (quota === undefined || !counted || refusesMethod(route, req.method ?? '', target.path))
      return decide(req, target, id, addressed, undefined)
    const decision = quota.take(deps.clients.key(req))
    // The memory store answers synchronously: no promise on the hot path. The stores never reject
    // (a failing Redis falls back to memory).
    return decision instanceof Promise
      ? decision.then((d) => decide(req, target, id, addressed, d))
      : decide(req, target, id, addressed, decision)
  }
  const apiCors = deps.routes.corsFor(API_PREFIX)
  const unreadable = (req: IncomingMessage, error: ApiError): Admission | Promise<Admission> => {
    const id = deps.requestId(req)
    const refused = (decision: Decision | undefined): Admission => {
      if (decision === undefined) return { id, cors: apiCors, outcome: { kind: 'refusal', error } }
      const quota = { policy: fields!.policy, remaining: fields!.remaining(decision) }
      if (decision.allowed) return { id, cors: apiCors, quota, outcome: { kind: 'refusal', error } }
      deps.onQuotaRefused()
      return { id, cors: apiCors, quota, outcome: { kind: 'refusal', error: deps.quota!.refusal(decision) } }
    }
    const decision = deps.quota?.take(deps.clients.key(req))
    return decision instanceof Promise ? decision.then(refused) : refused(decision)
  }

  // An admission never fails: a fault in deciding (a bug) is a 500 that still carries the path's CORS
  // and security fields and the request id, so a browser can read it.
  const guarded = <A extends unknown[]>(
    decideFor: (req: IncomingMessage, ...rest: A) => Admission | Promise<Admission>,
    addressOf: (...rest: A) => { route?: Route; cors: PreparedCors },
  ) =>
    function (req: IncomingMessage, ...rest: A): Admission | Promise<Admission> {
      try {
        const admission = decideFor(req, ...rest)
        return admission instanceof Promise
          ? admission.catch((err) => failed(err, req, addressOf(...rest)))
          : admission
      } catch (err) {
        return failed(err, req, addressOf(...rest))
      }
    }

  // With its route: a mount's fault is answered by the mount, in its own error body.
  function failed(
    err: unknown,
    req: IncomingMessage,
    address: { route?: Route; cors: PreparedCors },
  ): Admission {
    const id = deps.requestId(req)
    deps.onFault(err, id)
    return {
      id,
      route: address.route,
      cors: address.cors,
      outcome: { kind: 'refusal', error: new ApiError('internal_error', 'Internal server error') },
    }
  }

  return Object.assign(
    guarded(admit, (target: Target) => deps.routes.lookup(target.path)),
    { unreadable: guarded(unreadable, () => ({ cors: apiCors })) },
  )
}

function decodable(path: string): boolean {
  try {
    decodeURI(path)
    return true
  } catch {
    return false
  }
}

/*
 * The quota's fields:
 * The IETF rate-limit header fields (draft-ietf-httpapi-ratelimit-headers-10) that describe the
 * quota on every counted response: `RateLimit-Policy` (the quota) and `RateLimit` (what remains).
 */

const POLICY_NAME = 'default'

/** "0" to "999", and the same padded to three digits ("000" to "999"). */
const SMALL = Array.from({ length: 1000 }, (_, n) => String(n))
const PADDED = SMALL.map((digits) => digits.padStart(3, '0'))

/**
 * The decimal digits of a count (a non-negative integer), written from three-digit groups taken from
 * a table. Why not `String(n)`: V8 keeps every number it converts in its number-to-string cache, so
 * with a large quota (the counts then run through millions of values) each response put a new string
 * in that cache, which outlived the young generation: about 25 bytes promoted to the old generation
 * per request, and major collections under steady load. From the table nothing is cached, and the
 * strings die young.
 */
export function decimalText(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return String(n) // not a count: as JavaScript writes it
  return n < 1000 ? SMALL[n]! : decimalText(Math.floor(n / 1000)) + PADDED[n % 1000]!
}

export type RateLimitFields = {
  /** `"default";q=120;w=60`: the quota's name, its size and its window in seconds (structured fields). */
  readonly policy: string
  /** `"default";r=117;t=42`: what remains after a decision and in how many seconds a place frees up. */
  remaining(decision: Decision): string
}

export function rateLimitFields(quota: Quota): RateLimitFields {
  return {
    policy: `"${POLICY_NAME}";q=${quota.limit};w=${Math.round(quota.windowMs / 1000)}`,
    remaining: (decision) =>
      `"${POLICY_NAME}";r=${decimalText(decision.remaining)};t=${decimalText(decision.resetSeconds)}`,
  }
}

/**
 * Whether the raw query names `po_live` at all. Deliberately forgiving (never throws): the redirect
 * reads nothing else, and a malformed query is reported on the live read, not before it.
 */
const PO_LIVE_NAME = /(?:^|&)po_live(?:[=&]|$)/

export function mentionsPoLive(query: string | undefined): boolean {
  if (query === undefined) return false
  // The usual spelling, found without splitting (this runs on every API request).
  if (PO_LIVE_NAME.test(query)) return true
  // A percent-encoded name ("po%5Flive") still counts, as the live read will decode it.
  if (!query.includes('%')) return false
  return query.split('&').some((part) => {
    const rawName = part.split('=', 1)[0]!
    if (rawName === 'po_live') return true
    try {
      return decodeURIComponent(rawName.replaceAll('+', ' ')) === 'po_live'
    } catch {
      return false
    }
  })
}
