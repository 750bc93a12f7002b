import { describe, expect, it } from 'vitest'
import { Quota } from '../core/quota/quota.js'
import { MemoryRateLimitStore } from '../core/quota/memory-store.js'
import { decimalText, rateLimitFields } from './admission.js'

describe('decimalText', () => {
  it('writes counts as String does, across the group boundaries', () => {
    const counts = [0, 1, 9, 10, 99, 100, 119, 120, 999, 1000, 1001, 1010, 1100, 9999, 10_000, 100_001]
    counts.push(999_999, 1_000_000, 1_000_999, 9_999_999, 2 ** 31, Number.MAX_SAFE_INTEGER)
    for (let n = 0; n < 3000; n += 7) counts.push(n * 1_000 + (n % 1000), n * 1_000_003)
    for (const n of counts) expect(decimalText(n)).toBe(String(n))
  })

  it('leaves what is not a count to String', () => {
    for (const n of [-1, -1000, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(decimalText(n)).toBe(String(n))
  })
})

describe('rateLimitFields', () => {
  it('describes the quota and what a decision left', () => {
    const fields = rateLimitFields(new Quota(new MemoryRateLimitStore(), 9_999_999))
    expect(fields.policy).toBe('"default";q=9999999;w=60')
    expect(fields.remaining({ allowed: true, remaining: 9_001_042, resetSeconds: 42 })).toBe(
      '"default";r=9001042;t=42',
    )
    expect(fields.remaining({ allowed: false, remaining: 0, resetSeconds: 60 })).toBe('"default";r=0;t=60')
  })
})
