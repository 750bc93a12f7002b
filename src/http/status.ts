/** The HTTP status of each error code (docs/spec.md §7, docs/contract.md "Errors"): the one place codes meet statuses. */
import { ApiError, type ErrorCode } from '../core/errors.js'

const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  unavailable: 503,
  internal_error: 500,
  // The change feed's `since` is older than what is kept: download the snapshot again.
  gone: 410,
}

// The table read backwards (404 → not_found, 405 → method_not_allowed…).
const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(STATUS_BY_CODE).map(([code, status]) => [status, code as ErrorCode]),
)

/**
 * A refusal at the HTTP level that keeps a contract code but needs its own status (414 URL too
 * long, 431 headers too large, 417 unmet expectation, 408 too slow).
 */
export class HttpRefusal extends ApiError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(CODE_BY_STATUS.get(status) ?? 'invalid_parameter', message)
  }
}

export const statusOf = (err: ApiError): number =>
  err instanceof HttpRefusal ? err.status : STATUS_BY_CODE[err.code]

/**
 * The DNS-rebinding guard's refusal (front-door.ts): the request is understood, and refused for who
 * it claims to address. Answered in the contract's JSON error body on every path, pages included: no
 * person is meant to read it, only the script of the page that tried.
 */
export class MisaddressedRequest extends HttpRefusal {
  constructor(message: string) {
    super(403, message)
  }
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
