import { describe, expect, it, vi } from 'vitest'
import {
  RateLimitError,
  RecordsConnectionError,
  UnavailableError,
  UnexpectedResponseError,
} from './errors.js'
import { backoffMs, defaultSleep, parseRetryAfter, planRetry, type RetryPolicy } from './retry.js'

const script: RetryPolicy = { mode: 'script', maxRetries: 3, random: () => 0 }
const browser: RetryPolicy = { ...script, mode: 'browser' }
const rateLimited = (retryAfterMs?: number) =>
  new RateLimitError(429, 'rate_limited', 'slow down', retryAfterMs)

describe('parseRetryAfter', () => {
  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('2')).toBe(2000)
    expect(parseRetryAfter(' 61 ')).toBe(61_000)
  })

  it('reads an HTTP-date relative to now', () => {
    const now = () => Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0)
  })

  it('gives undefined for an absent or unreadable value', () => {
    for (const value of [null, undefined, '', 'soon', '-1', '1.5', '2e3', '12 seconds'])
      expect(parseRetryAfter(value)).toBeUndefined()
  })
})

describe('backoffMs', () => {
  it('doubles from 0.5 s and caps at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ])
  })

  it('takes off at most 25 % as jitter', () => {
    expect(backoffMs(0, () => 0.999999)).toBe(375)
    expect(backoffMs(4, () => 0.5)).toBe(7000)
  })
})

describe('planRetry', () => {
  it('waits what Retry-After asks, up to maxRetries times', () => {
    expect(planRetry(rateLimited(2000), 0, script)).toEqual({ retry: true, waitMs: 2000 })
    expect(planRetry(rateLimited(2000), 2, script)).toEqual({ retry: true, waitMs: 2000 })
    expect(planRetry(rateLimited(2000), 3, script)).toEqual({ retry: false })
  })

  it('accepts a wait of exactly one minute and stops at once beyond it', () => {
    expect(planRetry(rateLimited(60_000), 0, script)).toEqual({ retry: true, waitMs: 60_000 })
    expect(planRetry(rateLimited(61_000), 0, script)).toEqual({ retry: false })
  })

  it('backs off exponentially in script mode and waits a minute in browser mode without Retry-After', () => {
    expect([0, 1, 2].map((n) => planRetry(rateLimited(), n, script))).toEqual(
      [500, 1000, 2000].map((waitMs) => ({ retry: true, waitMs })),
    )
    expect(planRetry(rateLimited(), 0, browser)).toEqual({ retry: true, waitMs: 60_000 })
  })

  it('retries 503 like 429, and not 500', () => {
    expect(planRetry(new UnavailableError(503, 'unavailable', 'x', 5000), 0, script)).toEqual({
      retry: true,
      waitMs: 5000,
    })
    expect(planRetry(new UnexpectedResponseError(500, 'internal_error', 'x'), 0, script)).toEqual({
      retry: false,
    })
  })

  it('retries connection errors in script mode only', () => {
    const error = new RecordsConnectionError('http://127.0.0.1:1/', new TypeError('fetch failed'))
    expect(planRetry(error, 1, script)).toEqual({ retry: true, waitMs: 1000 })
    expect(planRetry(error, 3, script)).toEqual({ retry: false })
    expect(planRetry(error, 0, browser)).toEqual({ retry: false })
  })

  it('honours maxRetries 0', () => {
    expect(planRetry(rateLimited(1000), 0, { ...script, maxRetries: 0 })).toEqual({ retry: false })
  })
})

describe('defaultSleep', () => {
  it('resolves after exactly the given time, not a millisecond before', async () => {
    vi.useFakeTimers()
    try {
      let done = false
      const sleeping = defaultSleep(2_000).then(() => (done = true))
      await vi.advanceTimersByTimeAsync(1_999)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      await sleeping
      expect(done).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects promptly with the reason when aborted', async () => {
    const controller = new AbortController()
    const started = Date.now()
    const sleeping = defaultSleep(30_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(sleeping).rejects.toThrow('stop')
    // Rather than after the 30 s sleep: a third of it is room for a busy machine.
    expect(Date.now() - started).toBeLessThan(30_000 / 3)
  })

  it('rejects at once when the signal is already aborted', async () => {
    await expect(defaultSleep(30_000, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' })
  })
})
