/**
 * When to retry and how long to wait (docs/spec.md §7, the client rules): after a 429 or a 503, wait
 * `Retry-After` seconds, at most `maxRetries` times, and stop at once when the server asks for more
 * than a minute. Without a readable `Retry-After`, a script backs off exponentially with jitter and a
 * browser waits a minute (the quota window), since a page should not hammer a shared per-IP quota.
 * Pure functions, plus the default cancellable sleep.
 */
import { RecordsApiError, RecordsConnectionError } from './errors.js'

/** A wait longer than this is not waited for: the request fails at once (docs/spec.md §7). */
const MAX_RETRY_AFTER_MS = 60_000
/** Script back-off: 0.5 s × 2ⁿ, capped at 8 s, minus up to 25 % jitter. */
const BACKOFF = { initialMs: 500, maxMs: 8_000, jitter: 0.25 } as const
/** Browser wait when the server gives no readable Retry-After: one quota window. */
const BROWSER_DEFAULT_WAIT_MS = 60_000

/**
 * Statuses retried. 429 and 503 per the spec; 502 and 504 are what a proxy in front of the service
 * answers while it restarts, so they are transient too. 500 is a bug and is not retried.
 */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

export type RetryMode = 'script' | 'browser'

/** Sleeps `ms` milliseconds; must reject promptly (with `signal.reason`) when the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/**
 * Reads `Retry-After` as milliseconds: delay-seconds (the contract's form) or an HTTP-date
 * (RFC 9110 §10.2.3). Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // Only a real IMF-fixdate-like value: Date.parse alone accepts "1" or "2025" as dates.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now())
}

/** Exponential back-off for retry number `retry` (0-based), with jitter drawn from `random` in [0, 1). */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF.initialMs * 2 ** retry, BACKOFF.maxMs)
  return Math.round(base * (1 - BACKOFF.jitter * random()))
}

export type RetryPolicy = { mode: RetryMode; maxRetries: number; random: () => number }
export type RetryDecision = { retry: true; waitMs: number } | { retry: false }

/** Whether to retry after `error`, given `retriesDone` retries already made, and how long to wait first. */
export function planRetry(error: unknown, retriesDone: number, policy: RetryPolicy): RetryDecision {
  if (error instanceof RecordsConnectionError) {
    // In a browser a failed fetch is as often CORS or an offline page as a flaky network: not retried.
    if (policy.mode === 'browser' || retriesDone >= policy.maxRetries) return { retry: false }
    return { retry: true, waitMs: backoffMs(retriesDone, policy.random) }
  }
  if (!(error instanceof RecordsApiError) || !RETRIED_STATUSES.has(error.status)) return { retry: false }
  const asked = error.retryAfterMs
  // Checked before the retry count: a wait over a minute stops at once, even on the first answer.
  if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return { retry: false }
  if (retriesDone >= policy.maxRetries) return { retry: false }
  if (asked !== undefined) return { retry: true, waitMs: asked }
  return {
    retry: true,
    waitMs: policy.mode === 'browser' ? BROWSER_DEFAULT_WAIT_MS : backoffMs(retriesDone, policy.random),
  }
}

/** The default `Sleep`: a timer, cleared and rejected with the signal's reason on abort. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
