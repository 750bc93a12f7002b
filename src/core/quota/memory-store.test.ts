import { describe, expect, it } from 'vitest'
import { expectAgreesWithNaiveLog } from '../../../test/support/properties/quota-traffic.js'
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
  // The same property over ten times the requests runs in the scale tier (memory-store.scale.test.ts).
  it('agrees with a naive log of every request on random traffic, repeated milliseconds included', () => {
    expectAgreesWithNaiveLog(2_000)
  })
})
