/** Options of `RecordsClient`, their defaults, and the mode detection. */
import { resolveLimits, type Limits } from './limits.js'
import { RequestPacer } from './pacer.js'
import type { RetryMode, Sleep } from './retry.js'
import { defaultSleep } from './retry.js'
import type { SearchParameters } from './wire.js'

/** Default API root: a service started with `reference-records serve` on this machine. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/v1'
const DEFAULT_MAX_RETRIES = 3
/** Redirects followed per request, at most; each must stay on the origin of `baseUrl`. */
export const MAX_REDIRECTS = 3

/** Search parameters (docs/spec.md §4.3); `po_live` is the client's business. */
export type SearchQuery = SearchParameters
/** Parameters of `all()`: the filters only, since `all()` does the paging itself. */
export type ListQuery = Omit<SearchQuery, 'limit' | 'offset'>

/** Reported before each wait, retry by retry. */
export type RetryEvent = {
  /** 1 for the first retry, up to `maxRetries`. */
  attempt: number
  /** HTTP status that caused the retry; 0 when no response arrived. */
  status: number
  /** How long the client waits before the retry, in milliseconds. */
  waitMs: number
  /** The address that will be requested again. */
  url: string
  /** The error the retry answers. */
  error: Error
}

export type RecordsClientOptions = {
  /** The versioned API root. Default `http://127.0.0.1:8080/api/v1`. A trailing slash is ignored. */
  baseUrl?: string | URL
  /** The `fetch` to use; default the global one. Tests inject their own. */
  fetch?: typeof fetch
  /**
   * `script` follows redirects itself (`redirect: 'manual'`), retries connection errors and backs off
   * exponentially; `browser` lets the browser follow (a manual redirect is opaque there), then checks
   * the final address is same-origin, and waits a minute when Retry-After is missing. Default `auto`:
   * `browser` when `window` and `document` exist.
   */
  mode?: 'auto' | RetryMode
  /** Retries after a 429, 503 (or 502/504, or a connection error in script mode). Default 3. */
  maxRetries?: number
  /** Called before every wait for a retry. */
  onRetry?: (event: RetryEvent) => void
  /** Cancels every request of this client, waits included. */
  signal?: AbortSignal
  /** Waits between retries; default a cancellable timer. Tests inject a fake that records the waits. */
  sleep?: Sleep
  /** Current time in ms, for HTTP-date `Retry-After` values. Default `Date.now`. */
  now?: () => number
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number
  /** `User-Agent` sent in script mode (browsers forbid setting it). Default `reference-records-client`. */
  userAgent?: string
  /**
   * Requests per rolling minute this client sends at most, retries and redirects included (a burst
   * of up to 10, then evenly spaced). Default `auto`: 120, the service's default quota, until a
   * catalogue read by this client advertises its own (`limits.requests_per_minute`). 0: no pacing.
   */
  requestsPerMinute?: number | 'auto'
  /** A pacer shared with other clients (one budget for all); `requestsPerMinute` is then ignored. */
  pacer?: RequestPacer
  /** Largest JSON answer, in bytes; default 64 MiB. 0: no limit. */
  maxResponseBytes?: number
  /** Longest line of a download, in bytes; default 8 MiB. 0: no limit. */
  maxLineBytes?: number
  /** Largest download, in bytes; default 32 GiB. 0: no limit. */
  maxDownloadBytes?: number
  /** Longest a JSON answer may take, from sending to its last byte, in ms; default 60 000. 0: no limit. */
  timeoutMs?: number
  /** Longest wait for the next byte of any answer (its headers included), in ms; default 30 000. 0: no limit. */
  idleTimeoutMs?: number
  /** Longest a download may keep the client waiting for its bytes (its reader's time not counted), in ms; default 3 600 000. 0: no limit. */
  downloadTimeoutMs?: number
}

/** Per-call options: they narrow the client's own. */
export type RequestOptions = {
  /** Cancels this call; combined with the client's signal. */
  signal?: AbortSignal
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number
}

export type ResolvedOptions = Required<
  Omit<RecordsClientOptions, 'baseUrl' | 'mode' | 'signal' | 'onRetry' | 'requestsPerMinute' | keyof Limits>
> & {
  baseUrl: URL
  mode: RetryMode
  signal: AbortSignal | undefined
  onRetry: ((event: RetryEvent) => void) | undefined
  limits: Limits
}

/** `browser` when the page globals exist (docs/spec.md §5: browsers omit credentials and follow redirects themselves). */
export function detectMode(): RetryMode {
  const g = globalThis as { window?: unknown; document?: unknown }
  return g.window !== undefined && g.document !== undefined ? 'browser' : 'script'
}

function defaultUserAgent(): string {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node
  return node === undefined ? 'reference-records-client' : `reference-records-client (Node.js ${node})`
}

/** Merges defaults once and checks what a typo would otherwise turn into a confusing failure later. */
export function resolveOptions(options: RecordsClientOptions): ResolvedOptions {
  const baseUrl = new URL(String(options.baseUrl ?? DEFAULT_BASE_URL))
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new TypeError(`RecordsClient: baseUrl must be an http(s) URL, got "${baseUrl.href}"`)
  }
  if (baseUrl.search !== '' || baseUrl.hash !== '') {
    throw new TypeError(`RecordsClient: baseUrl must not carry a query or fragment, got "${baseUrl.href}"`)
  }
  baseUrl.pathname = baseUrl.pathname.replace(/\/+$/, '')
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
  checkMaxRetries(maxRetries)
  const fetchFn = options.fetch ?? globalThis.fetch
  if (typeof fetchFn !== 'function')
    throw new TypeError('RecordsClient: no global fetch; pass the `fetch` option')
  const limits = resolveLimits(options)
  const sleep = options.sleep ?? defaultSleep
  const now = options.now ?? Date.now
  const pacer =
    options.pacer ?? new RequestPacer({ requestsPerMinute: options.requestsPerMinute ?? 'auto', now })
  return {
    baseUrl,
    limits,
    pacer,
    // Unbound `window.fetch` throws "Illegal invocation" in browsers.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    mode: options.mode === undefined || options.mode === 'auto' ? detectMode() : options.mode,
    maxRetries,
    onRetry: options.onRetry,
    signal: options.signal,
    sleep,
    now,
    random: options.random ?? Math.random,
    userAgent: options.userAgent ?? defaultUserAgent(),
  }
}

export function checkMaxRetries(n: number): void {
  if (!Number.isInteger(n) || n < 0)
    throw new TypeError(`RecordsClient: maxRetries must be a whole number ≥ 0, got ${n}`)
}
