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
import type { ApiError } from '../core/errors.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { Admission, Target } from './admission.js'
import { jsonAnswer, type Answer, type ApiAnswers } from './api-answers.js'
import type { Completions } from './completions.js'
import type { PreparedCors } from './cors.js'
import { answerWriter } from './answer-writer.js'
import { plainRecordId, RECORD_PREFIX, type LiveReadRoute } from './live-read-routes.js'
import type { PreparedBody } from './prepared-body.js'
import { errorAnswer } from './raw-answers.js'

export type FastPathDeps = {
  records: LiveRecords
  answers: ApiAnswers
  /** The API's CORS and security header fields. */
  cors: PreparedCors
  /** The quota's RateLimit-Policy value, when a quota is enforced. */
  quotaPolicy: string | undefined
  /** Told of every answer sent here. */
  onAnswer?: () => void
  /** Where each answer sent here is reported (log and metrics). */
  completions: Completions
}

export type FastPath = {
  /**
   * Answers the admitted `req` and returns true, or returns false without touching it (the framework
   * answers, applying the same admission).
   */
  serve(req: IncomingMessage, res: ServerResponse, target: Target, admission: Admission): boolean
}

export function createFastPath(deps: FastPathDeps): FastPath {
  const writeApiAnswer = answerWriter(deps.cors, deps.quotaPolicy)

  /** The prepared body of a live read, when the answer needs no validation and no index work. */
  const preparedBody = (route: LiveReadRoute, target: Target): PreparedBody | undefined => {
    if (route === 'openapi') return target.query === 'po_live=1' ? deps.answers.openapi : undefined
    const index = deps.records.current
    if (index === undefined) return undefined // the framework answers 503
    if (route === 'search') return deps.answers.searches.get(index, target.url)
    if (target.query !== 'po_live=1') return undefined // any other parameter is validated by the framework
    if (route === 'catalogue') return deps.answers.catalogue(index)
    return deps.answers.record(index, target.path.slice(RECORD_PREFIX.length))
  }

  /** Counts and logs an answer sent here. */
  const sent = (req: IncomingMessage, res: ServerResponse, id: string, route: string) => {
    deps.onAnswer?.()
    deps.completions.ended(req, res, route, id)
  }

  /** The quota's refusal, built when it happens (never on the hot path). */
  const sendRefusal = (
    req: IncomingMessage,
    res: ServerResponse,
    admission: Admission,
    err: ApiError,
    route: string,
  ) => {
    const quota = admission.quota!
    const refusal = errorAnswer(err, deps.cors, undefined, {
      'x-request-id': admission.id,
      'ratelimit-policy': quota.policy,
      ratelimit: quota.remaining,
    })
    res.writeHead(refusal.status, refusal.headers)
    res.end(refusal.body)
    sent(req, res, admission.id, route)
  }

  return {
    serve(req, res, target, admission) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      // The admission read the route (route-table.ts): not read again here.
      const route = admission.route?.liveRead
      if (route === undefined || (route === 'record' && plainRecordId(target.path) === undefined))
        return false
      // A request with a body is the framework's to refuse.
      const headers = req.headers
      if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0')
        return false
      const outcome = admission.outcome
      let answer: Answer
      if (outcome === undefined) {
        const prepared = preparedBody(route, target)
        if (prepared === undefined) return false
        const acceptEncoding = headers['accept-encoding']
        answer = jsonAnswer(prepared, {
          ifNoneMatch: headers['if-none-match'],
          acceptEncoding: Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : acceptEncoding,
        })
      } else if (outcome.kind === 'redirect') answer = outcome.answer
      else if (
        outcome.kind === 'refusal' &&
        outcome.error.code === 'rate_limited' &&
        admission.quota !== undefined
      ) {
        sendRefusal(req, res, admission, outcome.error, deps.completions.liveReadRoute(route, target.path))
        return true
      } else return false // another refusal: answered by the framework in the route's terms
      writeApiAnswer(
        req,
        res,
        answer.status,
        answer.fields,
        answer.body,
        admission.id,
        admission.quota?.remaining,
      )
      sent(req, res, admission.id, deps.completions.liveReadRoute(route, target.path))
      return true
    },
  }
}
