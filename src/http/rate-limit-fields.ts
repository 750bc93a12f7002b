/**
 * The IETF rate-limit header fields (draft-ietf-httpapi-ratelimit-headers-10) that describe the
 * quota on every counted response: `RateLimit-Policy` (the quota) and `RateLimit` (what remains).
 */
import type { Quota } from '../core/quota/quota.js'
import type { Decision } from '../core/quota/store.js'

const POLICY_NAME = 'default'

/** "0" to "999", and the same padded to three digits ("000" to "999"). */
const SMALL = Array.from({ length: 1000 }, (_, n) => String(n))
const PADDED = SMALL.map((digits) => digits.padStart(3, '0'))

/**
 * The decimal digits of a count (a non-negative integer), written from three-digit groups taken from
 * a table. Why not `String(n)`: V8 keeps every number it converts in its number-to-string cache, so
 * with a large quota (the counts then run through millions of values) each response put a new string
 * in that cache, which outlived the young generation: about 25 bytes promoted to the old generation
 * per request, and major collections under steady load. From the table nothing is cached, and the
 * strings die young.
 */
export function decimalText(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return String(n) // not a count: as JavaScript writes it
  return n < 1000 ? SMALL[n]! : decimalText(Math.floor(n / 1000)) + PADDED[n % 1000]!
}

export type RateLimitFields = {
  /** `"default";q=120;w=60`: the quota's name, its size and its window in seconds (structured fields). */
  readonly policy: string
  /** `"default";r=117;t=42`: what remains after a decision and in how many seconds a place frees up. */
  remaining(decision: Decision): string
}

export function rateLimitFields(quota: Quota): RateLimitFields {
  return {
    policy: `"${POLICY_NAME}";q=${quota.limit};w=${Math.round(quota.windowMs / 1000)}`,
    remaining: (decision) =>
      `"${POLICY_NAME}";r=${decimalText(decision.remaining)};t=${decimalText(decision.resetSeconds)}`,
  }
}
