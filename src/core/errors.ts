/**
 * The API's one error type (docs/spec.md §7, docs/contract.md "Errors"), as codes and messages: what went wrong,
 * in words a client can act on. No transport status lives here: each adapter maps a code to its own
 * answer (an HTTP status, a JSON-RPC error, a CLI exit code).
 * Codes are lower-case and stable: clients branch on them, so they never change meaning.
 */
export const ERROR_CODES = [
  'invalid_parameter',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'unavailable',
  'internal_error',
  'gone',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** The only error the core throws on purpose; adapters turn it into their own error answer. */
export class ApiError extends Error {
  /** Seconds the client should wait before retrying (rate_limited, unavailable), when known. */
  readonly retryAfterSeconds: number | undefined
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options)
    this.name = 'ApiError'
    this.retryAfterSeconds = options?.retryAfterSeconds
  }
}

export type ErrorBody = { error: { code: ErrorCode; message: string } }
export const toErrorBody = (e: ApiError): ErrorBody => ({ error: { code: e.code, message: e.message } })
