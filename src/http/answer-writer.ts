/**
 * Sends the fast path's answers through Node's public `writeHead`, with one flat list of header
 * fields (name, value, …): the path's CORS and security fields, the request id and the quota's fields,
 * in the order the framework's hooks set them, then the answer's own fields; then the body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PreparedCors } from './cors.js'

/** An answer's own fields, flat (name, value, …). */
export type Fields = { readonly flat: readonly string[] }

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
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  fields: Fields,
  body: Body,
  id: string,
  ratelimit: string | undefined,
) => void

/** A writer for one path's answers; `policy` is the quota's RateLimit-Policy value, when counted. */
export function answerWriter(cors: PreparedCors, policy: string | undefined): AnswerWriter {
  const corsFields = Object.entries(cors.response).flat()
  return (_req, res, status, fields, body, id, ratelimit) => {
    // Filled in place, at its final length: this runs for every answer of the path.
    const own = fields.flat
    const head = new Array<string>(corsFields.length + (ratelimit === undefined ? 2 : 6) + own.length)
    let at = 0
    for (const field of corsFields) head[at++] = field
    head[at++] = 'x-request-id'
    head[at++] = id
    if (ratelimit !== undefined) {
      head[at++] = 'ratelimit-policy'
      head[at++] = policy!
      head[at++] = 'ratelimit'
      head[at++] = ratelimit
    }
    for (const field of own) head[at++] = field
    res.writeHead(status, head)
    endWith(res, body) // no body goes out for a HEAD: Node knows the method
  }
}
