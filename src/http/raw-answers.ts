/**
 * Error answers written without the framework: by the front door (no Host, shutting down) and on a
 * bare socket (the HTTP parser refused the request). They carry what every error carries — the
 * error body of the path, its CORS and security headers, `Cache-Control: no-store` — so a browser
 * can read them and no client sees a bare status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import { toErrorBody, type ApiError } from '../core/errors.js'
import type { PreparedCors } from './cors.js'
import type { ErrorBodyRenderer } from './error-handler.js'
import { MethodRefusal } from './error-handler.js'
import { statusOf } from './status.js'

export type ErrorAnswer = { status: number; headers: Record<string, string>; body: Buffer }

/** The answer to `err` on a path with these CORS headers; `rendered` is a mount's own error body, the contract's when absent. */
export function errorAnswer(
  err: ApiError,
  cors: PreparedCors,
  rendered?: object,
  extra: Record<string, string> = {},
): ErrorAnswer {
  const status = statusOf(err)
  const body = Buffer.from(JSON.stringify(rendered ?? toErrorBody(err)))
  const headers: Record<string, string> = {
    ...cors.response,
    ...extra,
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
  }
  if (err.retryAfterSeconds !== undefined) headers['retry-after'] = String(err.retryAfterSeconds)
  if (err instanceof MethodRefusal) headers.allow = err.allow
  return { status, headers, body }
}

/** A mount's error body for `err` (undefined without a renderer: the contract's); see ErrorBodyRenderer for `req`. */
export async function renderErrorBody(
  err: ApiError,
  render: ErrorBodyRenderer | undefined,
  req?: IncomingMessage,
): Promise<object | undefined> {
  return render === undefined ? undefined : render(err, statusOf(err), req)
}

/** Writes an error answer on a response object (the request was parsed; Node frames the response). */
export function writeErrorAnswer(res: ServerResponse, answer: ErrorAnswer, head = false): void {
  res.writeHead(answer.status, answer.headers)
  res.end(head ? undefined : answer.body)
}

/** The bytes of an answer for a bare socket, closing the connection (the request could not be parsed). */
export function rawAnswer(answer: ErrorAnswer): Buffer {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n`
  for (const [name, value] of Object.entries({ ...answer.headers, connection: 'close' }))
    head += `${name}: ${value}\r\n`
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), answer.body])
}
