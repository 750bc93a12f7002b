import { describe, expect, it } from 'vitest'
import { MAX_CACHE_TTL_MS, cacheHint } from './context.js'

describe('cacheHint', () => {
  const now = new Date('2026-11-28T12:00:00Z')
  it('is public, and a tenth of the time since the publication', () => {
    expect(cacheHint('2026-11-28T11:59:00Z', now)).toEqual({ ttlMs: 6_000, cacheScope: 'public' })
    expect(cacheHint('2026-11-28T11:40:00Z', now)).toEqual({ ttlMs: 120_000, cacheScope: 'public' })
  })
  it('is at most five minutes, however old the publication', () => {
    expect(cacheHint('2026-11-20T09:00:00Z', now).ttlMs).toBe(MAX_CACHE_TTL_MS)
  })
  it('is zero without a publication time, or for one after now (a clock ahead)', () => {
    expect(cacheHint(undefined, now).ttlMs).toBe(0)
    expect(cacheHint('2026-11-28T12:10:00Z', now).ttlMs).toBe(0)
    expect(cacheHint('not a date', now).ttlMs).toBe(0)
  })
})
