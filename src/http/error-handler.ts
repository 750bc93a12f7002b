/**
 * The framework's error handlers: every error Fastify sees, whatever raised it, leaves with its
 * status and the body of the route it hit — the contract's `{"error":{"code","message"}}`, or an HTML
 * page on the pages — as the one renderer of error answers decides it (render-error.ts, which the
 * writers outside the framework use too; a mount answers its own refusals: mount-entry.ts).
 * Internals are logged, never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.js'
import { FIELDS_ERRORS_DROP, renderError, type ErrorPageRenderer } from './render-error.js'
import { HttpRefusal } from './status.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a page for people: its errors are HTML pages (same status and Retry-After). */
    errorPage?: ErrorPageRenderer
  }
}

/** Maps framework errors (bad URL, body too large, …) to the contract's codes, keeping their 4xx status. */
export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err
  const status = (err as FastifyError).statusCode
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined
  return new HttpRefusal(status, (err as Error).message)
}

/**
 * Sends `err` through Fastify's reply, as renderError decides it: in the page `page` renders (the
 * route's `errorPage` by default), or the contract's JSON body.
 */
export function sendError(
  reply: FastifyReply,
  err: ApiError,
  page: ErrorPageRenderer | undefined = reply.request.routeOptions.config?.errorPage,
): FastifyReply {
  const answer = renderError(err, page === undefined ? undefined : { page, target: reply.request.url })
  for (const name of FIELDS_ERRORS_DROP) reply.removeHeader(name)
  return reply.code(answer.status).headers(answer.fields).send(answer.body)
}

/** The site's 404 as a page: its error (in the page's words) and the page that renders it. */
export type NotFoundPage = { error: ApiError; render: ErrorPageRenderer }

export type ErrorHandlerOptions = {
  /**
   * The page for an unknown path, when the client is a person's browser, with the path's fields for
   * a page (the route table's, in place of those of the JSON 404); undefined for the JSON body.
   */
  notFoundPage?: (
    req: FastifyRequest,
  ) => (NotFoundPage & { fields: Readonly<Record<string, string>> }) | undefined
}

export function registerErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((err, req: FastifyRequest, reply) => {
    const known = toApiError(err)
    if (known !== undefined) return sendError(reply, known)
    req.log.error({ err, reqId: req.id }, 'unhandled error') // the real cause stays in the logs
    return sendError(reply, new ApiError('internal_error', 'Internal server error'))
  })
  app.setNotFoundHandler((req, reply) => {
    const page = options.notFoundPage?.(req)
    if (page !== undefined) return sendError(reply.headers(page.fields), page.error, page.render)
    const path = req.url.split('?', 1)[0]!
    return sendError(
      reply,
      new ApiError('not_found', `No such path: ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`),
    )
  })
}
