/**
 * The memory quota store at sizes the unit tier does without: a limit far above the usual one, run
 * through many windows, and the naive-log property over 20 000 requests per limit (the unit tier
 * runs it over 2 000, memory-store.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { expectAgreesWithNaiveLog } from '../../../test/support/properties/quota-traffic.js'
import { MemoryRateLimitStore } from './memory-store.js'

describe('MemoryRateLimitStore memory, at scale', () => {
  it('stays exact with a limit far above the usual one (benchmarks), rolling through many windows', () => {
    const clock = { now: 0 }
    const store = new MemoryRateLimitStore({ now: () => clock.now })
    const accepted: number[] = []
    for (let i = 0; i < 300_000; i++) {
      if (store.take('load', 100_000).allowed) accepted.push(clock.now)
      clock.now += 0.5 // 2 000 requests per second for 150 s
    }
    // accepted during [0,50) s, refused until the first leave at 60 s, and so on: 50 + 50 + 30 s of 2 000/s
    expect(accepted).toHaveLength(260_000)
    // and never more than the limit in any rolling 60 s window
    let from = 0
    for (let to = 0; to < accepted.length; to++) {
      while (accepted[from]! <= accepted[to]! - 60_000) from++
      expect(to - from + 1).toBeLessThanOrEqual(100_000)
    }
  })
  it('agrees with a naive log of every request on random traffic, repeated milliseconds included', () => {
    expectAgreesWithNaiveLog(20_000)
  })
})
