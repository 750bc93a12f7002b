/**
 * What the command says while the client waits to retry: a rate limit, an outage or an unreachable
 * service must never look like a hang. One line per retry, with the reason and the wait.
 */
import { RecordsApiError } from '../../client/errors.js'
import type { RetryEvent } from '../../client/index.js'

/** Retries after a 429, 503, 502/504 or a connection error: the client's default, spelled out for the messages. */
export const CLI_MAX_RETRIES = 3

/** "0.5 s", "8 s", "58 s", "1 min 30 s". */
export function formatWait(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`
  const seconds = Math.round(ms / 1000)
  return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

/** Why the client retries, in a few words. */
function retryReason(event: Pick<RetryEvent, 'status' | 'error'>): string {
  const { status, error } = event
  if (status === 0)
    return `could not reach the service (${error.message.replace(/^Could not reach \S+: /, '')})`
  // The service's message may end with its own "retry in 42 s": the notice says the wait once, its own.
  const message =
    error instanceof RecordsApiError
      ? `: ${error.message.replace(/[;,.]?\s*retry in [\d.]+\s*s\.?$/iu, '')}`
      : ''
  if (status === 429) return `rate limited (429)${message}`
  if (status === 503) return `service unavailable (503)${message}`
  return `the service answered ${status}${message}`
}

/** "rate limited (429): …; retry 1 of 3 in 58 s". */
export function formatRetry(
  event: Pick<RetryEvent, 'status' | 'error' | 'attempt' | 'waitMs'>,
  maxRetries = CLI_MAX_RETRIES,
): string {
  return `${retryReason(event)}; retry ${event.attempt} of ${maxRetries} in ${formatWait(event.waitMs)}`
}
