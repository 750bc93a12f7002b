import { describe, expect, it } from 'vitest'
import { backoffDelay } from './publication-watcher.js'

describe('backoffDelay', () => {
  const timing = { firstBackoffMs: 500, maxBackoffMs: 30_000 }
  it('doubles from the first delay up to the cap', () => {
    const middle = () => 0.5 // no jitter
    expect([0, 1, 2, 3, 6, 7, 50].map((attempt) => backoffDelay(attempt, timing, middle))).toEqual([
      500, 1_000, 2_000, 4_000, 30_000, 30_000, 30_000,
    ])
  })
  it('spreads replicas by ±20 %', () => {
    expect(backoffDelay(2, timing, () => 0)).toBe(1_600)
    expect(backoffDelay(2, timing, () => 0.999_999)).toBe(2_400)
  })
})
