/** Exit codes of the client commands (search, get, catalogue, dump), and which error gives which. */
import {
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  RecordsConnectionError,
  ResponseLimitError,
} from '../../client/errors.js'
import { UsageError } from '../args.js'
import { LIMIT_FLAGS } from './client-limits.js'

export const EXIT = {
  /** Done. */
  ok: 0,
  /** Any other failure: service unavailable, connection, refused redirect, paging anomaly… */
  failure: 1,
  /** Bad command line, or a parameter the service refused (400). */
  usage: 2,
  /** Unknown record (404). */
  notFound: 3,
  /** Rate limited (429) after the allowed retries, or asked to wait more than a minute. */
  rateLimited: 4,
} as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The `--help` paragraph every client command prints. */
export const EXIT_CODES_HELP = `Exit codes:
  0  ok
  1  other failure (service unavailable, connection refused, refused redirect, incomplete listing…)
  2  usage error (bad option or value, or a parameter the service refused)
  3  not found (unknown record id)
  4  rate limited (the service asked to wait; retry later)`

export { UsageError }

export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InvalidParameterError) return EXIT.usage
  if (error instanceof NotFoundError) return EXIT.notFound
  if (error instanceof RateLimitError) return EXIT.rateLimited
  return EXIT.failure
}

/** One line for stderr, with what the user can do about it where we know. */
export function describeError(error: unknown): string {
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
    return `${error.message} (the service asks to wait ${Math.ceil(error.retryAfterMs / 1000)} s; retry later)`
  }
  if (error instanceof ResponseLimitError) {
    const flag = LIMIT_FLAGS[error.limit]
    return flag === undefined
      ? `${error.message} (more records than the catalogue announced; retry, the service may have just published)`
      : `${error.message}; ${flag} sets this limit`
  }
  if (error instanceof RecordsConnectionError) {
    return `${error.message}\nIs the service running there? Choose another with --base-url or REFERENCE_RECORDS_URL.`
  }
  return error instanceof Error ? error.message : String(error)
}
