/**
 * The API's one error type and its one body shape (spec §7, CONTRACT.md "Errors").
 * Codes are lower-case and stable: clients branch on them, so they never change meaning.
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  unavailable: 503,
  internal_error: 500,
} as const
export type ErrorCode = keyof typeof ERROR_STATUS

/** The only error a handler throws on purpose; the error handler turns it into an ErrorBody. */
export class ApiError extends Error {
  readonly status: number
  /** Extra response headers, such as `Retry-After` on a 429 or 503. */
  readonly headers: Record<string, string>
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number; headers?: Record<string, string> },
  ) {
    super(message, options)
    this.name = 'ApiError'
    // A few transport-level refusals (414, 431) keep the body's code but need their own status.
    this.status = options?.status ?? ERROR_STATUS[code]
    this.headers = options?.headers ?? {}
  }
}

export type ErrorBody = { error: { code: ErrorCode; message: string } }
export const toErrorBody = (e: ApiError): ErrorBody => ({ error: { code: e.code, message: e.message } })
