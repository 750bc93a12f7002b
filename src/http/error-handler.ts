/**
 * One place where failures become responses: every error, whatever raised it, leaves as the
 * contract's body `{"error":{"code","message"}}` with its status. Internals are logged, never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, ERROR_STATUS, toErrorBody, type ErrorCode } from '../errors.js'
import { isMcpPath } from '../mcp/http.js'

// The contract's table read backwards (404 → not_found, 405 → method_not_allowed…).
const CODE_BY_STATUS = Object.fromEntries(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code])) as Partial<
  Record<number, ErrorCode>
>

/** Maps framework errors (bad URL, body too large, …) to the contract's codes, keeping their 4xx status. */
export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err
  const status = (err as FastifyError).statusCode
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined
  return new ApiError(CODE_BY_STATUS[status] ?? 'invalid_parameter', (err as Error).message, { status })
}

// JSON-RPC's implementation-defined server error; `data` says what happened and how long to wait.
const JSON_RPC_SERVER_ERROR = -32000

/**
 * On /mcp an error raised before the SDK sees the request (quota, method, shutdown) is a JSON-RPC
 * error: MCP clients show the body's text to the model ("Error POSTing to endpoint: …"), so the
 * message carries the wait, while HTTP infrastructure still sees the status and Retry-After.
 */
function toJsonRpcError(err: ApiError) {
  const retryAfter = err.headers['retry-after']
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: JSON_RPC_SERVER_ERROR,
      message: err.message,
      data: { status: err.status, code: err.code, ...(retryAfter ? { retry_after_seconds: Number(retryAfter) } : {}) },
    },
  }
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value)
  // A 304/200's validators must not stick to an error.
  reply.removeHeader('etag')
  const body = isMcpPath(reply.request.url) ? toJsonRpcError(err) : toErrorBody(err)
  return reply.code(err.status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body)
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err, req: FastifyRequest, reply) => {
    const known = toApiError(err)
    if (known !== undefined) return sendError(reply, known)
    req.log.error({ err }, 'unhandled error') // the real cause stays in the logs
    return sendError(reply, new ApiError('internal_error', 'Internal server error'))
  })
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?', 1)[0]!
    return sendError(reply, new ApiError('not_found', `No such path: ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`))
  })
}
