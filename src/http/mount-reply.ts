/**
 * What a plain handler mounted next to the API (MCP) may answer: a reply read whole, which the mount
 * entry (mount-entry.ts) sends after the admission's fields with the same writer as the API's
 * answers (respond.ts), or a handler that writes its own response.
 */
import type { ServerResponse } from 'node:http'
import { fieldsOf, type Fields } from './respond.js'

/** A mount's reply, ready to send: its status, own fields (Content-Length aside) and body pieces. */
export type MountReply = {
  status: number
  headers: Readonly<Record<string, string>>
  body: readonly Buffer[]
  length: number
}

/** What a mount answers a request with: a reply for the mount entry to send, or a handler that writes its own response. */
export type MountAnswer = { reply: MountReply } | { write(res: ServerResponse): Promise<void> }

/** The fields of each mount reply's header object, flat: a kept reply shares its object, so they are listed once. */
const replyFields = new WeakMap<object, Fields>()

/** A mount reply's own fields as sent: its header fields, then its length. */
export function mountReplyFields(reply: MountReply): Fields {
  const length = String(reply.length)
  if ('content-length' in reply.headers)
    return fieldsOf(Object.entries({ ...reply.headers, 'content-length': length }).flat())
  let own = replyFields.get(reply.headers)
  if (own === undefined)
    replyFields.set(reply.headers, (own = fieldsOf(Object.entries(reply.headers).flat())))
  return fieldsOf([...own.flat, 'content-length', length])
}
