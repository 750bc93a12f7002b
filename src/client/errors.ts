/**
 * The client's typed errors (docs/spec.md §7), split as openai-node's and octokit's are: `RecordsApiError`
 * means the server answered with an error status and carries the server's `code`;
 * `RecordsConnectionError` means no response arrived. Every error the client throws on purpose
 * extends `RecordsClientError`; an abort is the one exception: it rejects with the signal's own
 * reason, as `fetch` does.
 */
import type { ErrorCode } from './wire.js'

/** A code from the contract's table, or any other string a newer server may send. */
export type RecordsErrorCode = ErrorCode | (string & {})

/** Base of every error thrown by `RecordsClient` (aborts excepted). */
export class RecordsClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
  // Spelled out on every class, not taken from `new.target.name`, which a minifier renames.
  override readonly name: string = 'RecordsClientError'
}

/** The server answered with an error status. `code` and `message` are the server's. */
export class RecordsApiError extends RecordsClientError {
  override readonly name: string = 'RecordsApiError'
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The server's `error.code`, or `unknown` when the body was not the contract's error body. */
    readonly code: RecordsErrorCode,
    message: string,
    /** The wait the server asked for (`Retry-After`), in milliseconds, when it sent a readable one. */
    readonly retryAfterMs?: number,
    /** The address that answered. */
    readonly url?: string,
  ) {
    super(message)
  }
}

/** 400 `invalid_parameter`: a parameter is malformed, out of range, unknown or repeated. */
export class InvalidParameterError extends RecordsApiError {
  override readonly name = 'InvalidParameterError'
}
/** 404 `not_found`: unknown record id (or unknown path). */
export class NotFoundError extends RecordsApiError {
  override readonly name = 'NotFoundError'
}
/** 405 `method_not_allowed`: the API is GET only. */
export class MethodNotAllowedError extends RecordsApiError {
  override readonly name = 'MethodNotAllowedError'
}
/** 429 `rate_limited`, after the allowed retries, or at once when the requested wait is over a minute. */
export class RateLimitError extends RecordsApiError {
  override readonly name = 'RateLimitError'
}
/** 503 `unavailable`, after the allowed retries, or at once when the requested wait is over a minute. */
export class UnavailableError extends RecordsApiError {
  override readonly name = 'UnavailableError'
}
/**
 * 410 `gone`: the change feed no longer keeps what came after the given `since` (or cursor); download
 * the whole snapshot again and follow the feed from the publication it carries (`sync` does).
 */
export class ChangesGoneError extends RecordsApiError {
  override readonly name = 'ChangesGoneError'
}
/** Any other status (500, 502, 414…), or a success whose body is not the JSON expected. */
export class UnexpectedResponseError extends RecordsApiError {
  override readonly name = 'UnexpectedResponseError'
}

/** No response arrived: DNS failure, refused or reset connection. The original error is the `cause`. */
export class RecordsConnectionError extends RecordsClientError {
  override readonly name: string = 'RecordsConnectionError'
  /** 0, as no HTTP status was received. */
  readonly status = 0
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Could not reach ${url}: ${describeCause(cause)}`, { cause })
  }
}

/** Which limit an answer went past (the client option of that name sets it; docs: "Limits"). */
export type ResponseLimit =
  | 'maxResponseBytes'
  | 'maxLineBytes'
  | 'maxDownloadBytes'
  | 'maxDownloadRecords'
  | 'timeoutMs'
  | 'idleTimeoutMs'
  | 'downloadTimeoutMs'

/**
 * An answer went past one of the client's limits: too large, a line too long, too slow or silent
 * too long. Not retried: a server that did it once will do it again. `limit` names the option.
 */
export class ResponseLimitError extends RecordsClientError {
  override readonly name: string = 'ResponseLimitError'
  constructor(
    readonly limit: ResponseLimit,
    /** The limit's value: bytes, records or milliseconds. */
    readonly value: number,
    message: string,
    /** The address that answered. */
    readonly url: string,
  ) {
    super(message)
  }
}

/** A redirect the client refuses to follow: to another origin, too many hops, an unreadable Location, or an opaque one. */
export class RedirectError extends RecordsClientError {
  override readonly name: string = 'RedirectError'
  constructor(
    readonly reason: 'cross_origin' | 'too_many_redirects' | 'invalid_location' | 'opaque_redirect',
    message: string,
    /** The refused target, when known. */
    readonly location?: string,
  ) {
    super(message)
  }
}

/** A page came back empty although `offset < total`: records would be silently missing. */
export class PagingAnomalyError extends RecordsClientError {
  override readonly name: string = 'PagingAnomalyError'
  constructor(
    readonly offset: number,
    readonly total: number,
    /** Distinct records received before the anomaly. */
    readonly received: number,
  ) {
    super(
      `Paging anomaly: the page at offset ${offset} is empty although the server reports ${total} matching records ` +
        `(${received} received so far); the listing is incomplete, retry later`,
    )
  }
}

/** More records match than paging can reach (offset is capped at `maxOffset`): narrow the search. */
export class SearchTooBroadError extends RecordsClientError {
  override readonly name: string = 'SearchTooBroadError'
  constructor(
    readonly total: number,
    readonly maxOffset: number,
  ) {
    super(
      `Search too broad: ${total} records match but paging stops at offset ${maxOffset}; ` +
        'narrow the search (add words, --kind or --region) to list every record',
    )
  }
}

const API_ERRORS: Record<number, typeof RecordsApiError> = {
  400: InvalidParameterError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  410: ChangesGoneError,
  429: RateLimitError,
  503: UnavailableError,
}

/** Picks the error class from the status and reads the contract's error body (`{ error: { code, message } }`). */
export function createApiError(
  status: number,
  body: unknown,
  retryAfterMs: number | undefined,
  url: string,
): RecordsApiError {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown
    message?: unknown
  }
  const ErrorClass = API_ERRORS[status] ?? UnexpectedResponseError
  return new ErrorClass(
    status,
    typeof code === 'string' ? code : 'unknown',
    typeof message === 'string' ? message : `HTTP ${status} from ${url}`,
    retryAfterMs,
    url,
  )
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause)
  // Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED…) is in its cause.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : ''
  return `${cause.message}${inner}`
}
