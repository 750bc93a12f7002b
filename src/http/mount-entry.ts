/**
 * The one entry of the plain handlers mounted next to the API (MCP): every request to a mount's path
 * is answered here, from the front door, whether the fast path is on or not, and never reaches the
 * framework. The admission (admission.ts) has decided its CORS and security fields, its id, its quota
 * and any refusal — the preflight, a 405 for a method the mount does not take, 429, 414, the 503
 * before the first snapshot; this only writes what was decided, a refusal in the mount's own error
 * body, or the handler's answer after the admission's fields.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/errors.js'
import type { Admission } from './admission.js'
import { admittedFields, answerWriter, writeRefusal, type Completions } from './respond.js'
import { PREFLIGHT_CACHE_CONTROL, type PreparedCors } from './cors.js'
import { mountReplyFields } from './mount-reply.js'
import type { Mount } from './route-table.js'

export type MountEntryDeps = {
  /** Where each answer is reported (log and metrics); a mount's path is its route. */
  completions: Completions
}

export type MountEntry = {
  /** Answers `req`, admitted to the address of `mount` (the admission's route, route-table.ts). */
  serve(req: IncomingMessage, res: ServerResponse, admission: Admission, mount: Mount): void
}

export function createMountEntry(deps: MountEntryDeps): MountEntry {
  // One writer per mount, made at start for the CORS fields the route table gives its address.
  type Served = Mount & { cors: PreparedCors; writeReply: ReturnType<typeof answerWriter> }
  const served = new Map<Mount, Served>()
  const servedOf = (mount: Mount, cors: PreparedCors): Served => {
    let entry = served.get(mount)
    if (entry === undefined) served.set(mount, (entry = { ...mount, cors, writeReply: answerWriter(cors) }))
    return entry
  }

  /** A refusal the admission decided, in the mount's error body (the contract's if it cannot render one). */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    mount: Served,
    admission: Admission,
    error: ApiError,
  ) =>
    writeRefusal(res, {
      error,
      cors: mount.cors,
      admitted: admission,
      render: mount.errorBody,
      req,
      head: req.method === 'HEAD',
    })

  const answer = (req: IncomingMessage, res: ServerResponse, mount: Served, admission: Admission) => {
    void mount.answer(req).then((answered) => {
      if (res.destroyed) return // the client left while its body was read
      if ('reply' in answered) {
        const { reply } = answered
        return mount.writeReply(res, reply.status, mountReplyFields(reply), reply.body, admission)
      }
      // The handler writes its own response (a stream of events), after the admission's fields.
      for (const [name, value] of Object.entries(mount.cors.response)) res.setHeader(name, value)
      for (const [name, value] of Object.entries(admittedFields(admission))) res.setHeader(name, value)
      return answered.write(res)
    })
  }

  return {
    serve(req, res, admission, answeredBy) {
      const mount = servedOf(answeredBy, admission.cors)
      deps.completions.whenFinished(req, res, mount.path, admission.id)
      const outcome = admission.outcome
      if (outcome === undefined) answer(req, res, mount, admission)
      else if (outcome.kind === 'preflight') {
        res.writeHead(204, {
          ...admission.cors.response,
          ...admission.cors.preflight,
          'cache-control': PREFLIGHT_CACHE_CONTROL,
        })
        res.end()
      } else if (outcome.kind === 'refusal') refuse(req, res, mount, admission, outcome.error)
      // The live-read redirect is the API's: decided for a mount, it would be a bug.
      else refuse(req, res, mount, admission, new ApiError('internal_error', 'Internal server error'))
    },
  }
}
