/**
 * Sends the fast path's answers: after the path's CORS and security fields, the request id and the
 * quota's fields, in the order the framework's hooks set them, then the answer's own fields and body.
 * The head is composed (raw-head.ts) where the response allows it, and goes through writeHead
 * otherwise; the fields and their order are the same either way.
 */
import type { ServerResponse, IncomingMessage } from 'node:http'
import type { PreparedCors } from './cors.js'
import { endWith, fieldText, type Body, type RawHeads } from './raw-head.js'

/**
 * An answer's own fields, flat (name, value, …) and joined by `fieldText`. `framing`: one of them is
 * a field Node reads to frame the message or the connection (`Connection: close`, say), so the
 * head must go through writeHead, which acts on it.
 */
export type Fields = { readonly flat: readonly string[]; readonly text: string; readonly framing?: boolean }

/** Fields writeHead does more with than write them (RFC 9112 framing, connection management, what Node adds itself). */
const FRAMING_FIELDS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'date', 'expect', 'upgrade'])

/** `flat` as Fields, noting any framing field among them. */
export function fieldsOf(flat: readonly string[]): Fields {
  let framing = false
  for (let i = 0; i < flat.length; i += 2) framing ||= FRAMING_FIELDS.has(flat[i]!.toLowerCase())
  return { flat, text: fieldText(flat), framing }
}

export type AnswerWriter = (req: IncomingMessage, res: ServerResponse, status: number, fields: Fields, body: Body, id: string, ratelimit: string | undefined) => void

/** A writer for one path's answers; `policy` is the quota's RateLimit-Policy value, when counted. */
export function answerWriter(cors: PreparedCors, policy: string | undefined, heads: RawHeads | undefined): AnswerWriter {
  const corsFields = Object.entries(cors.response).flat()
  const corsText = fieldText(corsFields)
  const policyText = policy === undefined ? '' : `ratelimit-policy: ${policy}\r\n`
  return (req, res, status, fields, body, id, ratelimit) => {
    if (fields.framing !== true && heads?.usable(req, res) === true) {
      const quotaText = ratelimit === undefined ? '' : `${policyText}ratelimit: ${ratelimit}\r\n`
      return heads.send(res, status, `${corsText}x-request-id: ${id}\r\n${quotaText}${fields.text}`, body)
    }
    const head = [...corsFields, 'x-request-id', id]
    if (ratelimit !== undefined) head.push('ratelimit-policy', policy!, 'ratelimit', ratelimit)
    for (const field of fields.flat) head.push(field)
    res.writeHead(status, head)
    endWith(res, body) // no body goes out for a HEAD: Node knows the method
  }
}
