import { describe, expect, it } from 'vitest'
import { MemoryRateLimitStore } from './memory-store.js'
import { describeRateLimitStore } from './store.contract.js'

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
})
