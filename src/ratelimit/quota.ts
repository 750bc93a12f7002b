/**
 * The request quota shared by the API and the MCP endpoint: `limit` requests per rolling window per
 * client, and the IETF rate-limit header fields (draft-ietf-httpapi-ratelimit-headers-10) that
 * describe it. HTTP hooks and the MCP transport both call `take`, so one budget covers both.
 */
import type { Decision, RateLimitStore } from './store.js'

export const WINDOW_MS = 60_000
const POLICY_NAME = 'default'

export class Quota {
  /** `RateLimit-Policy` value: the quota's name, its size and its window in seconds (structured fields). */
  readonly policyHeader: string

  constructor(
    readonly store: RateLimitStore,
    readonly limit: number,
    readonly windowMs: number = WINDOW_MS,
  ) {
    this.policyHeader = `"${POLICY_NAME}";q=${limit};w=${Math.round(windowMs / 1000)}`
  }

  take(key: string): Decision | Promise<Decision> {
    return this.store.take(key, this.limit, this.windowMs)
  }

  /** `RateLimit` value after a decision: what remains and in how many seconds the next place frees up. */
  rateLimitHeader(decision: Decision): string {
    return `"${POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`
  }

  /** The refusal message, naming the limit and the wait. */
  refusal(decision: Decision): string {
    return `Too many requests: at most ${this.limit} per ${Math.round(this.windowMs / 1000)} s per client, shared by the API and the MCP server; retry in ${decision.resetSeconds} s`
  }
}
