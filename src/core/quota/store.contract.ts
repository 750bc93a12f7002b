/**
 * The quota guarantee, checked the same way against every store: at most `limit` accepted in any
 * rolling window, never a refusal under the limit, and an exact Retry-After.
 */
import { describe, expect, it } from 'vitest'
import type { RateLimitStore } from './quota.js'

const LIMIT = 120

/** `make(clock)` returns a fresh, isolated store reading time from `clock.now`. */
export function describeRateLimitStore(
  name: string,
  make: (clock: { now: number }) => Promise<RateLimitStore>,
) {
  describe(`${name} RateLimitStore`, () => {
    const setup = async () => {
      const clock = { now: 1_000_000 }
      const store = await make(clock)
      const take = async (key = 'client') => store.take(key, LIMIT)
      return { clock, store, take }
    }

    it('accepts the limit, refuses the next with the exact wait, and rolls with the window', async () => {
      const { clock, store, take } = await setup()
      try {
        expect(await take()).toEqual({ allowed: true, remaining: 119, resetSeconds: 60 })
        clock.now += 30_500
        for (let i = 2; i <= LIMIT; i++) expect((await take()).remaining).toBe(LIMIT - i)
        // 121st: the first request (30.5 s ago) leaves the window in 29.5 s → 30 whole seconds
        expect(await take()).toEqual({ allowed: false, remaining: 0, resetSeconds: 30 })
        clock.now += 29_499
        expect(await take()).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 })
        clock.now += 1 // exactly when the oldest counted request leaves the window
        // the oldest counted request is now one of the 119 taken at +30.5 s: its place frees in 30.5 s → 31
        expect(await take()).toEqual({ allowed: true, remaining: 0, resetSeconds: 31 })
        // refused requests were not counted: only the one place freed up was taken
        expect((await take()).allowed).toBe(false)
      } finally {
        await store.close()
      }
    })

    it('never refuses a client under the limit in the rolling window', async () => {
      const { clock, store, take } = await setup()
      try {
        for (let i = 0; i < 60; i++) expect((await take()).allowed).toBe(true)
        clock.now += 30_000
        for (let i = 0; i < 60; i++) expect((await take()).allowed).toBe(true)
        expect((await take()).allowed).toBe(false)
        clock.now += 30_000 // the first 60 leave: 60 places again, no more
        for (let i = 0; i < 60; i++) expect((await take()).allowed, `request ${i}`).toBe(true)
        expect(await take()).toMatchObject({ allowed: false, resetSeconds: 30 })
      } finally {
        await store.close()
      }
    })

    it('counts the wait from the oldest counted request: t stays 60 for its first second, then counts down', async () => {
      const { clock, store, take } = await setup()
      try {
        const started = clock.now
        // The whole budget within 952 ms (what a fast client does): every answer says a full minute.
        for (let i = 0; i < LIMIT; i++) {
          expect(await take(), `request ${i + 1}`).toEqual({
            allowed: true,
            remaining: LIMIT - 1 - i,
            resetSeconds: 60,
          })
          clock.now += 8
        }
        clock.now = started + 999
        expect(await take()).toEqual({ allowed: false, remaining: 0, resetSeconds: 60 })
        clock.now = started + 1_000 // the oldest is a second old: 59 s until it leaves
        expect(await take()).toEqual({ allowed: false, remaining: 0, resetSeconds: 59 })
        clock.now = started + 1_001
        expect(await take()).toEqual({ allowed: false, remaining: 0, resetSeconds: 59 })
      } finally {
        await store.close()
      }
    })

    it('keeps separate budgets per key', async () => {
      const { store, take } = await setup()
      try {
        for (let i = 0; i < LIMIT; i++) await take('a')
        expect((await take('a')).allowed).toBe(false)
        expect(await take('b')).toMatchObject({ allowed: true, remaining: 119 })
      } finally {
        await store.close()
      }
    })

    it('answers Retry-After within 1..60 whatever the timing', async () => {
      const { clock, store, take } = await setup()
      try {
        for (let i = 0; i < LIMIT; i++) {
          await take()
          clock.now += 37 // spread over 4.4 s
        }
        for (let step = 0; step < 70; step++) {
          const d = await take()
          if (!d.allowed) {
            expect(d.resetSeconds).toBeGreaterThanOrEqual(1)
            expect(d.resetSeconds).toBeLessThanOrEqual(60)
          }
          clock.now += 997
        }
      } finally {
        await store.close()
      }
    })
  })
}
