/**
 * The fast path: answers that are already prepared — a record, a search answered before, the
 * catalogue, the OpenAPI document, their 304s, the 307 to a live read, and the quota's 429 — sent
 * straight from the front door, without the framework's per-request machinery (hooks, reply
 * objects, a child logger, a second parse of the query). It decides nothing of its own: the bodies
 * come from ApiAnswers and the answers from the same builders the framework's routes use
 * (api-answers.ts, raw-answers.ts); anything else — a first search, a parameter to validate, an
 * unknown record, a body, an error — is handed to the framework, which answers it as before. A
 * differential test (test/e2e/fast-path.test.ts) replays requests with the fast path on and off and
 * compares status, header fields and bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import type { Quota } from '../core/quota/quota.js'
import type { Decision } from '../core/quota/store.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import { jsonAnswer, type Answer, type ApiAnswers } from './api-answers.js'
import type { ClientAddresses } from './client-address.js'
import type { PreparedCors } from './cors.js'
import type { CompletionLog } from './logging.js'
import { mountReplyFields, type MountAnswer } from './mount-reply.js'
import type { PreparedBody } from './prepared-body.js'
import { mentionsPoLive } from './query.js'
import { rateLimitFields } from './rate-limit-fields.js'
import { errorAnswer } from './raw-answers.js'
import { answerWriter } from './answer-writer.js'
import { MAX_URL_LENGTH } from './request-guards.js'
import type { Target } from './target.js'

export type FastPathDeps = {
  records: LiveRecords
  answers: ApiAnswers
  /** The API's CORS and security header fields. */
  cors: PreparedCors
  quota: Quota | undefined
  onQuotaRefused(): void
  /** Told of every answer sent here. */
  onAnswer?: () => void
  clients: ClientAddresses
  requestId(req: IncomingMessage): string
  log: CompletionLog | undefined
  /**
   * Plain handlers mounted next to the API (MCP): a POST to one is handed to it here, after the
   * same guards the framework runs (CORS, request id, quota), instead of going through the router,
   * the hooks and a body parser that does nothing for it. Refusals go to the framework.
   */
  mounts: readonly FastMount[]
}

export type FastMount = {
  path: string
  cors: PreparedCors
  /** Whether it needs a records snapshot (refused with 503 by the framework before the first one). */
  readsRecords: boolean
  /** Whether its requests count in the quota. */
  counted: boolean
  /** Reads the request and decides its answer; never rejects (failures are answered in the mount's own terms). */
  answer(req: IncomingMessage): Promise<MountAnswer>
}

type Route = 'catalogue' | 'openapi' | 'search' | 'record'

const FACTS = `${API_PREFIX}/facts`
const RECORD_PREFIX = `${FACTS}/`
/** The router's bound on a path parameter: a longer id is refused by the framework (400), not redirected. */
const MAX_ID_LENGTH = 1_000

function routeOf(path: string): Route | undefined {
  if (path === FACTS) return 'search'
  if (path.startsWith(RECORD_PREFIX)) {
    const id = path.slice(RECORD_PREFIX.length)
    // A plain segment only: an encoded one is decoded (or refused) by the framework's router.
    return id !== '' && id.length <= MAX_ID_LENGTH && !id.includes('/') && !id.includes('%') ? 'record' : undefined
  }
  if (path === API_PREFIX || path === `${API_PREFIX}/`) return 'catalogue'
  if (path === `${API_PREFIX}/openapi.json`) return 'openapi'
  return undefined
}

export type FastPath = {
  /**
   * Answers `req` and returns true, or returns false without touching it (the framework answers).
   * Having returned true, it may still hand the request over to the framework later, by `handOver`.
   */
  serve(req: IncomingMessage, res: ServerResponse, target: Target, handOver: (req: IncomingMessage, res: ServerResponse) => void): boolean
}

export function createFastPath(deps: FastPathDeps): FastPath {
  const fields = deps.quota === undefined ? undefined : rateLimitFields(deps.quota)
  const writeAnswer = answerWriter(deps.cors, fields?.policy)
  const mounts = deps.mounts.map((mount) => ({ ...mount, write: answerWriter(mount.cors, fields?.policy) }))

  /** The prepared body of a live read, when the answer needs no validation and no index work. */
  const preparedBody = (route: Route, target: Target): PreparedBody | undefined => {
    if (route === 'openapi') return target.query === 'po_live=1' ? deps.answers.openapi : undefined
    const index = deps.records.current
    if (index === undefined) return undefined // the framework answers 503
    if (route === 'search') return deps.answers.searches.get(index, target.url)
    if (target.query !== 'po_live=1') return undefined // any other parameter is validated by the framework
    if (route === 'catalogue') return deps.answers.catalogue(index)
    return deps.answers.record(index, target.path.slice(RECORD_PREFIX.length))
  }

  /** Counts and logs an answer sent here. */
  const sent = (req: IncomingMessage, res: ServerResponse, id: string, startedAt: number) => {
    deps.onAnswer?.()
    const log = deps.log
    if (log !== undefined) res.once('finish', () => log({ id, method: req.method!, url: req.url!, address: deps.clients.address(req), status: res.statusCode, startedAt }))
  }

  /** Sends `answer`, or the quota's refusal when `decision` (undefined: not counted) does not allow it. */
  const sendAnswer = (req: IncomingMessage, res: ServerResponse, answer: Answer, id: string, decision: Decision | undefined, startedAt: number) => {
    if (decision !== undefined && !decision.allowed) {
      deps.onQuotaRefused()
      return sendError(req, res, id, deps.quota!.refusal(decision), { 'ratelimit-policy': fields!.policy, ratelimit: fields!.remaining(decision) }, startedAt)
    }
    writeAnswer(req, res, answer.status, answer.fields, answer.body, id, decision === undefined ? undefined : fields!.remaining(decision))
    sent(req, res, id, startedAt)
  }

  /** A refusal or a failure of the quota, built when it happens (never on the hot path). */
  const sendError = (req: IncomingMessage, res: ServerResponse, id: string, err: ApiError, extra: Record<string, string>, startedAt: number) => {
    const refusal = errorAnswer(err, deps.cors, undefined, { 'x-request-id': id, ...extra })
    res.writeHead(refusal.status, refusal.headers)
    res.end(refusal.body)
    sent(req, res, id, startedAt)
  }

  /** A POST to a mount, when nothing refuses it: the guards' decisions, then the mount's answer. */
  const serveMount = (req: IncomingMessage, res: ServerResponse, target: Target, handOver: (req: IncomingMessage, res: ServerResponse) => void): boolean => {
    const mount = mounts.find((m) => m.path === target.path)
    if (mount === undefined || target.url.length > MAX_URL_LENGTH) return false
    if (mount.readsRecords && deps.records.current === undefined) return false // the framework answers 503
    const id = deps.requestId(req)
    const startedAt = deps.log === undefined ? 0 : performance.now()
    const answer = (ratelimit: string | undefined) => {
      sent(req, res, id, startedAt)
      void mount.answer(req).then((answer) => {
        if (res.destroyed) return // the client left while its body was read
        if ('reply' in answer) return mount.write(req, res, answer.reply.status, mountReplyFields(answer.reply), answer.reply.body, id, ratelimit)
        // The handler writes its own response, after the guards' fields.
        for (const [name, value] of Object.entries(mount.cors.response)) res.setHeader(name, value)
        res.setHeader('x-request-id', id)
        if (ratelimit !== undefined) res.setHeader('ratelimit-policy', fields!.policy).setHeader('ratelimit', ratelimit)
        return answer.write(res)
      })
    }
    if (deps.quota === undefined || !mount.counted) {
      answer(undefined)
      return true
    }
    // A refusal is not counted: the framework takes the same decision again and answers it in the
    // mount's error body (which may read the request's body for its id).
    const decide = (decision: Decision) => (decision.allowed ? answer(fields!.remaining(decision)) : handOver(req, res))
    const decision = deps.quota.take(deps.clients.key(req))
    if (decision instanceof Promise) decision.then(decide, () => handOver(req, res))
    else decide(decision)
    return true
  }

  return {
    serve(req, res, target, handOver) {
      if (req.method === 'POST') return mounts.length > 0 && serveMount(req, res, target, handOver)
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      const route = routeOf(target.path)
      if (route === undefined || target.url.length > MAX_URL_LENGTH) return false
      // A request with a body is the framework's to refuse.
      const headers = req.headers
      if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') return false
      let answer: Answer
      if (!mentionsPoLive(target.query)) answer = deps.answers.redirect(target.url)
      else {
        const prepared = preparedBody(route, target)
        if (prepared === undefined) return false
        const acceptEncoding = headers['accept-encoding']
        answer = jsonAnswer(prepared, { ifNoneMatch: headers['if-none-match'], acceptEncoding: Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : acceptEncoding })
      }
      const startedAt = deps.log === undefined ? 0 : performance.now()
      const id = deps.requestId(req)
      const quota = deps.quota
      // No closure per request on the hot path: the quota off, or the memory store's synchronous decision.
      if (quota === undefined) sendAnswer(req, res, answer, id, undefined, startedAt)
      else {
        const decision = quota.take(deps.clients.key(req))
        // The stores never reject (a failing Redis falls back to memory); if one did, the framework would answer 500 too.
        if (decision instanceof Promise) decision.then((d) => sendAnswer(req, res, answer, id, d, startedAt), () => sendError(req, res, id, new ApiError('internal_error', 'Internal server error'), {}, startedAt))
        else sendAnswer(req, res, answer, id, decision, startedAt)
      }
      return true
    },
  }
}
