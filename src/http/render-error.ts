/**
 * The one renderer of error answers, whoever sends them: the framework's error handlers
 * (error-handler.ts, through Fastify's reply) and the writers outside the framework (respond.ts: the
 * front door, a mount, the fast path's 429, the server outside the parser, a bare socket). It decides
 * the status, the error's own header fields (Retry-After, Allow, `Cache-Control: no-store`, the
 * content type), the fields an error must not keep (a validator set before the failure), and the
 * body: the contract's `{"error":{"code","message"}}`, a mount's own error body, or the HTML page of
 * a route for people. What every answer of the path carries (its CORS and security fields, the
 * request id, the quota's fields) is the admission's, set by the caller; so is the framing
 * (Content-Length, `Connection: close`).
 */
import type { IncomingMessage } from 'node:http'
import { toErrorBody, type ApiError } from '../core/errors.js'
import { MethodRefusal, MisaddressedRequest, statusOf } from './status.js'

/**
 * Renders a refusal in a mount's own format (mount-entry.ts, and the front door's refusals on a
 * mount's path). `req` is the refused request when its body has not been read by anyone: the
 * renderer may read it (bounded) to echo what identifies the request in its protocol, as MCP's
 * JSON-RPC id. Without `req` it renders at once.
 */
export type ErrorBodyRenderer = (
  err: ApiError,
  status: number,
  req?: IncomingMessage,
) => object | Promise<object>

/** Renders a refusal as an HTML page, for the pages people open; `target` is the request target. */
export type ErrorPageRenderer = (err: ApiError, status: number, target: string) => string

/** What an error's body is made of: the contract's JSON when neither is given. */
export type ErrorBodySource =
  /** The page of a route for people, rendered for the request target. */
  | { readonly page: ErrorPageRenderer; readonly target: string }
  /** A mount's own error body, already rendered (ErrorBodyRenderer). */
  | { readonly rendered: object }

/** Fields a handler may have set before failing that no error answer keeps: a 304's or 200's validator. */
export const FIELDS_ERRORS_DROP = ['etag'] as const

export type RenderedError = {
  readonly status: number
  /** The error's own header fields, in the order they go out, after the path's. */
  readonly fields: Readonly<Record<string, string>>
  readonly body: Buffer
}

const HTML_TYPE = 'text/html; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'

/** The answer to `err`, its body made from `source` (the contract's JSON without one). */
export function renderError(err: ApiError, source?: ErrorBodySource): RenderedError {
  const status = statusOf(err)
  const fields: Record<string, string> = {}
  if (err.retryAfterSeconds !== undefined) fields['retry-after'] = String(err.retryAfterSeconds)
  if (err instanceof MethodRefusal) fields.allow = err.allow
  fields['cache-control'] = 'no-store'
  // The DNS-rebinding guard's refusal is for the script that tried, never a page (front-door.ts).
  if (source !== undefined && 'page' in source && !(err instanceof MisaddressedRequest)) {
    fields['content-type'] = HTML_TYPE
    return { status, fields, body: Buffer.from(source.page(err, status, source.target)) }
  }
  fields['content-type'] = JSON_TYPE
  const body = source !== undefined && 'rendered' in source ? source.rendered : toErrorBody(err)
  return { status, fields, body: Buffer.from(JSON.stringify(body)) }
}
