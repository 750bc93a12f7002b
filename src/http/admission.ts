/**
 * How every request is admitted, decided once, by one function, whatever answers it afterwards (the
 * fast path or the framework): the path's CORS and security fields, the request id, the quota (and
 * its fields), the bound on the target's length, the preflight, the live-read redirect, and the 503
 * of an endpoint that reads records before the first snapshot, and a mount's 405. The front door calls `admit` for each
 * request and keeps the result on it; the fast path and the framework's one hook (app.ts) only apply
 * it. Connection-level refusals (a target that is not a path, a missing Host, a drain) come before,
 * in the front door; a target holding a fragment is refused there too, but counted here
 * (`admit.unreadable`).
 */
import type { IncomingMessage } from 'node:http'
import { currentSnapshot } from '../core/api/reader.js'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import type { Quota } from '../core/quota/quota.js'
import type { Decision } from '../core/quota/store.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { Answer, ApiAnswers } from './api-answers.js'
import type { ClientAddresses } from './client-address.js'
import type { CorsTable, PreparedCors } from './cors.js'
import { MethodRefusal } from './error-handler.js'
import type { HostGuard } from './host-guard.js'
import { liveReadRoute } from './live-read-routes.js'
import { isUnderPath, mentionsPoLive } from './query.js'
import { rateLimitFields } from './rate-limit-fields.js'
import { HttpRefusal } from './status.js'
import { quotaDecided } from './trace-channels.js'
import type { Target } from './target.js'

/** Longest request target accepted. A legitimate one is far shorter (q is at most 300 characters, ~3.6 KB encoded). */
const MAX_URL_LENGTH = 8_192

/** What was decided instead of a handler's answer, if anything. */
type Outcome =
  { kind: 'preflight' } | { kind: 'refusal'; error: ApiError } | { kind: 'redirect'; answer: Answer }

export type Admission = {
  readonly id: string
  readonly cors: PreparedCors
  /** The quota's fields (RateLimit-Policy, RateLimit), when the request was counted. */
  readonly quota?: { readonly policy: string; readonly remaining: string }
  readonly outcome?: Outcome
}

export type AdmissionDeps = {
  cors: CorsTable
  quota: Quota | undefined
  /** Paths whose requests count in the quota (the API root, pages that read records, a counted mount). */
  countedRoots: readonly string[]
  /** Whether the router refuses `method` on `path` (405): nothing is served, so nothing is counted. */
  refusesMethod(method: string, path: string): boolean
  clients: ClientAddresses
  requestId(req: IncomingMessage): string
  records: LiveRecords
  answers: ApiAnswers
  /**
   * Paths of the endpoints refused with 503 before the first snapshot, at admission: mounts that read
   * the records (MCP). The API's operations and the pages refuse it themselves, when they read the
   * snapshot (the OpenAPI document and the guides need none).
   */
  readingRecords: readonly string[]
  /**
   * The handlers mounted next to the API (mount-entry.ts) and the methods each takes besides OPTIONS:
   * any other method on a mount's path is refused here (405), before the quota.
   */
  mounts: readonly { path: string; methods: readonly string[] }[]
  /** The DNS-rebinding guard (host-guard.ts), when the service listens on a loopback address. */
  hostGuard?: HostGuard
  onQuotaRefused(): void
  /** Told of every decision the quota made (for metrics). */
  onQuotaDecision?(allowed: boolean): void
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

export function createAdmission(deps: AdmissionDeps): Admit {
  const mounts = deps.mounts.map((m) => ({
    path: m.path,
    methods: m.methods,
    allow: [...m.methods, 'OPTIONS'].join(', '),
  }))
  // A mount's address, matched exactly as the mount entry matches it: whose Origin the host guard checks.
  const isMountPath = (path: string) => mounts.some((m) => m.path === path)
  const fields = deps.quota === undefined ? undefined : rateLimitFields(deps.quota)
  const isCounted = (path: string) => {
    for (const root of deps.countedRoots) if (isUnderPath(path, root)) return true // a loop: no closure per request
    return false
  }

  /** What follows the quota's decision (undefined: not counted). */
  const decide = (
    req: IncomingMessage,
    target: Target,
    id: string,
    cors: PreparedCors,
    decision: Decision | undefined,
  ): Admission => {
    const quota =
      decision === undefined ? undefined : { policy: fields!.policy, remaining: fields!.remaining(decision) }
    if (decision !== undefined) deps.onQuotaDecision?.(decision.allowed)
    if (decision !== undefined && quotaDecided.hasSubscribers)
      quotaDecided.publish({ request: req, allowed: decision.allowed })
    if (decision !== undefined && !decision.allowed) {
      deps.onQuotaRefused()
      return { id, cors, quota, outcome: { kind: 'refusal', error: deps.quota!.refusal(decision) } }
    }
    // Counted like any other refusal of the path (docs/contract.md "Quota").
    const misaddressed = deps.hostGuard?.(req, isMountPath(target.path))
    if (misaddressed !== undefined)
      return { id, cors, quota, outcome: { kind: 'refusal', error: misaddressed } }
    if (target.url.length > MAX_URL_LENGTH) {
      return {
        id,
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
    // The redirect reads nothing but the target (docs/contract.md "Live-read redirect"): before any check of the parameters.
    const method = req.method
    if (
      (method === 'GET' || method === 'HEAD') &&
      liveReadRoute(target.path) !== undefined &&
      !mentionsPoLive(target.query)
    ) {
      return { id, cors, quota, outcome: { kind: 'redirect', answer: deps.answers.redirect(target.url) } }
    }
    if (
      deps.readingRecords.some((path) => isUnderPath(target.path, path)) &&
      deps.records.current === undefined
    ) {
      try {
        currentSnapshot(deps.records)
      } catch (err) {
        return { id, cors, quota, outcome: { kind: 'refusal', error: err as ApiError } }
      }
    }
    return quota === undefined ? { id, cors } : { id, cors, quota }
  }

  const admit = (req: IncomingMessage, target: Target): Admission | Promise<Admission> => {
    const cors = deps.cors.policyFor(target.path)
    const id = deps.requestId(req)
    // A preflight is answered for any path (docs/contract.md "Methods": OPTIONS → 204), never counted;
    // but not for a page that must not drive this service (a rebinding page's preflight).
    if (req.method === 'OPTIONS') {
      const misaddressed = deps.hostGuard?.(req, isMountPath(target.path))
      if (misaddressed !== undefined) return { id, cors, outcome: { kind: 'refusal', error: misaddressed } }
      return { id, cors, outcome: { kind: 'preflight' } }
    }
    const method = req.method ?? ''
    for (const mount of mounts)
      if (mount.path === target.path && !mount.methods.includes(method))
        return {
          id,
          cors,
          outcome: { kind: 'refusal', error: new MethodRefusal(method, mount.path, mount.allow) },
        }
    const quota = deps.quota
    // Every request to a counted address counts (docs/contract.md "Quota"), but one the path refuses (405).
    if (quota === undefined || !isCounted(target.path) || deps.refusesMethod(method, target.path))
      return decide(req, target, id, cors, undefined)
    const decision = quota.take(deps.clients.key(req))
    // The memory store answers synchronously: no promise on the hot path. The stores never reject
    // (a failing Redis falls back to memory).
    return decision instanceof Promise
      ? decision.then((d) => decide(req, target, id, cors, d))
      : decide(req, target, id, cors, decision)
  }
  const apiCors = deps.cors.policyFor(API_PREFIX)
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
    corsOf: (...rest: A) => PreparedCors,
  ) =>
    function (req: IncomingMessage, ...rest: A): Admission | Promise<Admission> {
      try {
        const admission = decideFor(req, ...rest)
        return admission instanceof Promise
          ? admission.catch((err) => failed(err, req, corsOf(...rest)))
          : admission
      } catch (err) {
        return failed(err, req, corsOf(...rest))
      }
    }

  function failed(err: unknown, req: IncomingMessage, cors: PreparedCors): Admission {
    const id = deps.requestId(req)
    deps.onFault(err, id)
    return {
      id,
      cors,
      outcome: { kind: 'refusal', error: new ApiError('internal_error', 'Internal server error') },
    }
  }

  return Object.assign(
    guarded(admit, (target: Target) => deps.cors.policyFor(target.path)),
    { unreadable: guarded(unreadable, () => apiCors) },
  )
}
