/**
 * The request quota shared by the API and the MCP endpoint: `limit` requests per rolling window per
 * client. Every adapter calls `take` with the client's key, so one budget covers them all; how a
 * decision is shown (HTTP header fields, a JSON-RPC error) is the adapter's business. Here too is
 * the contract its stores implement: a rolling-window counter per client key, `take` atomic per key
 * in each backend (in-process memory, Redis shared by replicas).
 *
 * Why not @fastify/rate-limit: its stores count in fixed windows, which let up to twice the limit
 * through around a window boundary (120 at 0:59, 120 more at 1:00). The contract says "never more
 * than the limit in any 60 s window", which needs the timestamps of accepted requests (a sliding
 * log). Its hook also lives inside Fastify, and the MCP endpoint must draw from the same budget.
 */
import { ApiError } from '../errors.js'

/** What the quota decided for one request. */
export type Decision = {
  allowed: boolean
  /** Requests still allowed in the window after this one (0 when refused). */
  remaining: number
  /**
   * Whole seconds until one more request would pass (when the oldest counted request leaves the
   * window), at least 1: the `Retry-After` of a refusal and the `t` of the RateLimit field.
   */
  resetSeconds: number
}

/** The contract's window: 60 s, rolling (docs/contract.md "Quota"). */
export const WINDOW_MS = 60_000

export interface RateLimitStore {
  /** Where counts live, for logs and metrics: "memory" or "redis". */
  readonly kind: string
  /** Length of the rolling window, in ms; fixed for the store's life, so every sweep and expiry agree. */
  readonly windowMs: number
  /**
   * Counts one request for `key` if fewer than `limit` were accepted in the last `windowMs`;
   * a refused request is not counted. Synchronous where the backend allows it (no promise per request).
   */
  take(key: string, limit: number): Decision | Promise<Decision>
  close(): Promise<void>
}

/** Seconds from `nowMs` until `oldestMs` leaves a window of `windowMs`, rounded up, within 1..window. */
export function secondsUntilExpiry(oldestMs: number, nowMs: number, windowMs: number): number {
  const waitMs = oldestMs + windowMs - nowMs
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil(waitMs / 1000)))
}

export class Quota {
  constructor(
    readonly store: RateLimitStore,
    readonly limit: number,
  ) {}

  /** Length of the rolling window, in ms (the store's). */
  get windowMs(): number {
    return this.store.windowMs
  }

  take(key: string): Decision | Promise<Decision> {
    return this.store.take(key, this.limit)
  }

  /** The refusal of a request the decision did not allow: names the limit and the wait. */
  refusal(decision: Decision): ApiError {
    const message =
      `Too many requests: at most ${this.limit} per ${Math.round(this.windowMs / 1000)} s per client, ` +
      `shared by the API and the MCP server; retry in ${decision.resetSeconds} s`
    return new ApiError('rate_limited', message, { retryAfterSeconds: decision.resetSeconds })
  }

  close(): Promise<void> {
    return this.store.close()
  }
}
