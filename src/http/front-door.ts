/**
 * The server's request listener, in front of the framework: every request is taken in by its
 * connection (one response per request, bounded unsent bytes), its target normalised once (the
 * one spelling every later decision reads, docs/contract.md "Addresses"), and refused here when no
 * route could serve it well: a target that holds a fragment (counted in the quota, whatever its
 * path), a target that is not a path, an HTTP/1.1 request without Host, any request while the
 * server drains. The answers written here are logged like any other. Every other request is admitted, once, by `admit`
 * (admission.ts), and then answered by a mount (mount-entry.ts), the fast path or the framework,
 * which all apply that admission and decide nothing of it again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import { keepAdmission, type Admission, type Admit } from './admission.js'
import { markStarted, type Completions } from './completions.js'
import type { Connections } from './connections.js'
import type { CorsTable } from './cors.js'
import type { ErrorBodyRenderer } from './error-handler.js'
import type { FastPath } from './fast-path.js'
import type { MountEntry } from './mount-entry.js'
import { errorAnswer, renderErrorBody, writeErrorAnswer } from './raw-answers.js'
import { HttpRefusal } from './status.js'
import { fragmentRefusal, holdsFragment, normaliseTarget } from './target.js'

/** Seconds a client is asked to wait when this replica is shutting down: another one will answer. */
const DRAIN_RETRY_AFTER_SECONDS = 1

export type FrontDoorOptions = {
  connections: () => Connections
  cors: CorsTable
  /** The error body format of a path (a mount's own), or undefined for the contract's. */
  errorBodyFor(path: string): ErrorBodyRenderer | undefined
  /** Tags the request with its id before it is answered here (the framework reads the same header). */
  requestId(req: IncomingMessage): string
  /** The handlers mounted next to the API (MCP): every request to their paths is answered there. */
  mounts: MountEntry
  /** Prepared answers sent without the framework; undefined when everything else goes to the framework. */
  fastPath?: FastPath
  /** How requests are admitted (available once the app is built, before the server listens). */
  admit(): Admit
  /** Where the answers given here are reported (log and metrics). */
  completions: Completions
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

export function frontDoor(options: FrontDoorOptions, next: RequestListener): RequestListener {
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    err: ApiError,
    extra: Record<string, string> = {},
  ) => {
    const headers = { 'x-request-id': options.requestId(req), ...extra }
    // Routed by the target as read (normalised once it is a path; a target that is not one routes nowhere).
    const route = options.completions.routeOfPath((req.url ?? '').split('?', 1)[0]!)
    options.completions.whenFinished(req, res, route, headers['x-request-id'])
    const write = (body?: object) =>
      writeErrorAnswer(
        res,
        errorAnswer(err, options.cors.policyFor(path), body, headers),
        req.method === 'HEAD',
      )
    const render = options.errorBodyFor(path)
    if (render === undefined) return write()
    // Nothing has read the body yet: a mount's renderer may (MCP echoes the JSON-RPC id).
    void renderErrorBody(err, render, req).then(write, () => write())
  }
  /** A target no route may read (a fragment): refused in the API's terms, and counted. */
  const refuseUnreadable = (req: IncomingMessage, res: ServerResponse, err: ApiError) => {
    const write = (admission: Admission) => {
      // No route reads a target holding a fragment: reported under no route's name.
      options.completions.whenFinished(req, res, options.completions.routeOfPath(''), admission.id)
      const error = admission.outcome?.kind === 'refusal' ? admission.outcome.error : err
      const quota = admission.quota
      const headers: Record<string, string> = { 'x-request-id': admission.id }
      if (quota !== undefined) {
        headers['ratelimit-policy'] = quota.policy
        headers.ratelimit = quota.remaining
      }
      writeErrorAnswer(res, errorAnswer(error, admission.cors, undefined, headers), req.method === 'HEAD')
    }
    const admitted = options.admit().unreadable(req, err)
    if (!(admitted instanceof Promise)) return write(admitted)
    admitted.then(write, () =>
      refuse(req, res, API_PREFIX, new ApiError('internal_error', 'Internal server error')),
    )
  }
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // Before anything reads the target: the router would cut it at the "#", a reader of the whole would not.
    if (holdsFragment(req.url ?? '')) return refuseUnreadable(req, res, fragmentRefusal())
    const target = normaliseTarget(req.url ?? '')
    if (target === undefined)
      return refuse(
        req,
        res,
        API_PREFIX,
        new HttpRefusal(400, 'The request target must be a path, such as /api/v1/'),
      )
    // The raw target stays readable for logs; every decision below reads the normalised one.
    ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url
    req.url = target.url
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      return refuse(req, res, target.path, new HttpRefusal(400, 'Missing Host header (required by HTTP/1.1)'))
    }
    if (options.connections().draining) {
      const err = new ApiError('unavailable', 'The server is shutting down; retry shortly', {
        retryAfterSeconds: DRAIN_RETRY_AFTER_SECONDS,
      })
      return refuse(req, res, target.path, err, { connection: 'close' })
    }
    const go = (admission: Admission) => {
      keepAdmission(req, admission)
      if (options.mounts.serve(req, res, admission)) return
      try {
        if (options.fastPath?.serve(req, res, target, admission) === true) return
      } catch (err) {
        // A fault (a bug) preparing the answer, found by src/service/internal-error.test.ts: nothing is
        // written yet, so the framework answers, and its error handler logs the cause and sends a 500.
        if (res.headersSent) return void res.destroy(err as Error)
      }
      next(req, res)
    }
    const admitted = options.admit()(req, target)
    if (!(admitted instanceof Promise)) return go(admitted)
    // The quota's stores never reject (a failing Redis falls back to memory); if one did, a 500.
    admitted.then(go, () =>
      refuse(req, res, target.path, new ApiError('internal_error', 'Internal server error')),
    )
  }
  return (req, res) => {
    markStarted(req)
    options.connections().schedule(req, res, handle)
  }
}
