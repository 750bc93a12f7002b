/**
 * The request quota shared by the API and the MCP endpoint: `limit` requests per rolling window per
 * client. Every adapter calls `take` with the client's key, so one budget covers them all; how a
 * decision is shown (HTTP header fields, a JSON-RPC error) is the adapter's business.
 */
import { ApiError } from '../errors.js'
import type { Decision, RateLimitStore } from './store.js'

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
