import { describe, expect, it } from 'vitest'
import { MemoryRateLimitStore } from './memory-store.js'
import { describeRateLimitStore } from './store.contract.js'
import { secondsUntilExpiry } from './store.js'

describeRateLimitStore('memory', async (clock) => new MemoryRateLimitStore({ now: () => clock.now }))

describe('MemoryRateLimitStore memory', () => {
  it('forgets clients once nothing of theirs is left in the window', () => {
    const clock = { now: 0 }
    const store = new MemoryRateLimitStore({ now: () => clock.now, sweepIntervalMs: 1_000 })
    for (let i = 0; i < 1_000; i++) store.take(`c${i}`, 120)
    clock.now = 30_000
    store.take('late', 120)
    expect(store.size).toBe(1_001)
    clock.now = 60_000 // the first thousand leave the window; the late client stays
    store.take('late', 120)
    expect(store.size).toBe(1)
  })
  it('grows a busy client log beyond its initial size and keeps it exact', () => {
    const clock = { now: 0 }
    const store = new MemoryRateLimitStore({ now: () => clock.now })
    for (let i = 0; i < 500; i++) {
      expect(store.take('busy', 500).allowed).toBe(true)
      clock.now += 10
    }
    expect(store.take('busy', 500)).toEqual({ allowed: false, remaining: 0, resetSeconds: 55 })
  })
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
  it('counts many requests in one millisecond exactly, and lets them go together', () => {
    const clock = { now: 1_000 }
    const store = new MemoryRateLimitStore({ now: () => clock.now })
    for (let i = 0; i < 100; i++) expect(store.take('burst', 120).allowed).toBe(true)
    clock.now = 1_001
    for (let i = 0; i < 20; i++) expect(store.take('burst', 120).allowed).toBe(true)
    expect(store.take('burst', 120)).toEqual({ allowed: false, remaining: 0, resetSeconds: 60 })
    clock.now = 61_000 // the first millisecond's hundred leave the window at once
    expect(store.take('burst', 120)).toEqual({ allowed: true, remaining: 99, resetSeconds: 1 })
    clock.now = 61_001
    expect(store.take('burst', 120)).toEqual({ allowed: true, remaining: 118, resetSeconds: 60 })
  })
  it('agrees with a naive log of every request on random traffic, repeated milliseconds included', () => {
    let seed = 7
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    for (const limit of [1, 5, 120, 1_000]) {
      const clock = { now: 0 }
      const store = new MemoryRateLimitStore({ now: () => clock.now, sweepIntervalMs: 5_000 })
      const naive = new Map<string, number[]>()
      for (let i = 0; i < 20_000; i++) {
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
  })
})
