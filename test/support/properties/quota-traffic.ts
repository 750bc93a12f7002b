/**
 * The memory quota store against a naive log of every request, on seeded random traffic. Shared by
 * the unit tier (a few thousand requests, a quick check) and the scale tier (many more, so that long
 * runs of bursts, pauses and sweeps are met): the property is one, only the count differs.
 */
import { expect } from 'vitest'
import { MemoryRateLimitStore } from '../../../src/core/quota/memory-store.js'
import { secondsUntilExpiry } from '../../../src/core/quota/quota.js'

/** Replays `requests` random requests per limit and expects every decision of the store to be the log's. */
export function expectAgreesWithNaiveLog(requests: number): void {
  let seed = 7
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  for (const limit of [1, 5, 120, 1_000]) {
    const clock = { now: 0 }
    const store = new MemoryRateLimitStore({ now: () => clock.now, sweepIntervalMs: 5_000 })
    const naive = new Map<string, number[]>()
    for (let i = 0; i < requests; i++) {
      // bursts in the same millisecond, small steps, and now and then a long pause
      const step = random()
      clock.now += step < 0.5 ? 0 : step < 0.97 ? Math.floor(random() * 40) : Math.floor(random() * 70_000)
      const key = `c${Math.floor(random() * 3)}`
      const times = (naive.get(key) ?? []).filter((t) => t > clock.now - 60_000)
      const allowed = times.length < limit
      if (allowed) times.push(clock.now)
      naive.set(key, times)
      const decision = store.take(key, limit)
      expect(decision.allowed).toBe(allowed)
      expect(decision.remaining).toBe(allowed ? limit - times.length : 0)
      expect(decision.resetSeconds).toBe(secondsUntilExpiry(times[0]!, clock.now, 60_000))
    }
  }
}
