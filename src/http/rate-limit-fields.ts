/**
 * The IETF rate-limit header fields (draft-ietf-httpapi-ratelimit-headers-10) that describe the
 * quota on every counted response: `RateLimit-Policy` (the quota) and `RateLimit` (what remains).
 */
import type { Quota } from '../core/quota/quota.js'
import type { Decision } from '../core/quota/store.js'

const POLICY_NAME = 'default'

export type RateLimitFields = {
  /** `"default";q=120;w=60`: the quota's name, its size and its window in seconds (structured fields). */
  readonly policy: string
  /** `"default";r=117;t=42`: what remains after a decision and in how many seconds a place frees up. */
  remaining(decision: Decision): string
}

export function rateLimitFields(quota: Quota): RateLimitFields {
  return {
    policy: `"${POLICY_NAME}";q=${quota.limit};w=${Math.round(quota.windowMs / 1000)}`,
    remaining: (decision) => `"${POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`,
  }
}
