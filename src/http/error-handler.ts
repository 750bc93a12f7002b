/**
 * One place where failures become responses: every error, whatever raised it, leaves with its status
 * and the body of the route it hit — the contract's `{"error":{"code","message"}}`, or an HTML page
 * on the pages (a mount answers its own refusals: mount-entry.ts). Internals are logged, never sent.
 */
import type { IncomingMessage } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, toErrorBody } from '../core/errors.js'
import { HttpRefusal, MisaddressedRequest, statusOf } from './status.js'

/**
 * Renders a refusal in a mount's own format (mount-entry.ts, and the front door's refusals on a
 * mount's path). `req` is the refused
 * request when its body has not been read by anyone: the renderer may read it (bounded) to echo what
 * identifies the request in its protocol, as MCP's JSON-RPC id. Without `req` it renders at once.
 */
export type ErrorBodyRenderer = (
  err: ApiError,
  status: number,
  req?: IncomingMessage,
) => object | Promise<object>
/** Renders a refusal as an HTML page, for the pages people open (set as route config `errorPage`); `target` is the request target. */
type ErrorPageRenderer = (err: ApiError, status: number, target: string) => string

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a page for people: its errors are HTML pages (same status and Retry-After). */
    errorPage?: ErrorPageRenderer
    /** The route only answers 405 (a method the path does not take): not counted in the quota. */
    refusesMethod?: boolean
  }
}

/** Maps framework errors (bad URL, body too large, …) to the contract's codes, keeping their 4xx status. */
export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err
  const status = (err as FastifyError).statusCode
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined
  return new HttpRefusal(status, (err as Error).message)
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  const status = statusOf(err)
  if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds))
  if (err.code === 'method_not_allowed' && err instanceof MethodRefusal) reply.header('allow', err.allow)
  // A 304/200's validators must not stick to an error.
  reply.removeHeader('etag')
  // The DNS-rebinding guard's refusal is for the script that tried, never a page (front-door.ts).
  const page = err instanceof MisaddressedRequest ? undefined : reply.request.routeOptions.config?.errorPage
  if (page !== undefined) {
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(err, status, reply.request.url))
  }
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(toErrorBody(err))
}

/** A 405, with the methods the path does take (the `Allow` header). */
export class MethodRefusal extends ApiError {
  constructor(
    method: string,
    path: string,
    readonly allow: string,
  ) {
    super('method_not_allowed', `Method ${method} is not allowed on ${path} (allowed: ${allow})`)
  }
}

export type ErrorHandlerOptions = {
  /** The page for an unknown path, when the client is a person's browser (it may set headers); undefined for the JSON body. */
  notFoundPage?: (req: FastifyRequest, reply: FastifyReply) => string | undefined
}

export function registerErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((err, req: FastifyRequest, reply) => {
    const known = toApiError(err)
    if (known !== undefined) return sendError(reply, known)
    req.log.error({ err, reqId: req.id }, 'unhandled error') // the real cause stays in the logs
    return sendError(reply, new ApiError('internal_error', 'Internal server error'))
  })
  app.setNotFoundHandler((req, reply) => {
    const page = options.notFoundPage?.(req, reply)
    if (page !== undefined)
      return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page)
    const path = req.url.split('?', 1)[0]!
    return sendError(
      reply,
      new ApiError('not_found', `No such path: ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`),
    )
  })
}
