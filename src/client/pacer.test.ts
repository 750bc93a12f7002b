import { describe, expect, it } from 'vitest'
import { RequestPacer } from './pacer.js'

/** A pacer on a fake clock: each wait moves the clock on, and is remembered. */
function pacedOn(requestsPerMinute: number | 'auto') {
  let now = 0
  const waits: number[] = []
  const pacer = new RequestPacer({ requestsPerMinute, now: () => now })
  const sleep = async (ms: number) => {
    waits.push(ms)
    now += ms
  }
  const sent: number[] = []
  const send = async () => {
    await pacer.take(sleep)
    sent.push(now)
  }
  return { pacer, waits, sent, send, advance: (ms: number) => (now += ms) }
}

/** The most requests any rolling window of 60 s holds. */
function busiestMinute(times: number[]): number {
  let most = 0
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= 60_000) i++
    most = Math.max(most, j - i + 1)
  }
  return most
}

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('RequestPacer', () => {
  it('lets a burst of 10 go at once, then keeps any rolling minute within 120 requests', async () => {
    const { sent, send, waits } = pacedOn('auto')
    for (let i = 0; i < 500; i++) await send()
    expect(sent.slice(0, 10)).toEqual(Array(10).fill(0))
    expect(waits.length).toBe(490)
    expect(busiestMinute(sent)).toBeLessThanOrEqual(120)
    // And not far below it: the pace is the quota's, not a crawl.
    expect(busiestMinute(sent)).toBeGreaterThanOrEqual(115)
  })

  it('keeps any quota, whatever the arrival times, within every rolling minute', async () => {
    for (const quota of [1, 2, 5, 9, 11, 60, 120, 1000]) {
      for (let seed = 1; seed <= 5; seed++) {
        const next = random(seed * quota)
        const { sent, send, advance } = pacedOn(quota)
        for (let i = 0; i < 3 * quota + 20; i++) {
          // Bursts and pauses: most requests come at once, some after a while.
          if (next() < 0.2) advance(Math.floor(next() * 90_000))
          await send()
        }
        expect(busiestMinute(sent), `quota ${quota}, seed ${seed}`).toBeLessThanOrEqual(quota)
      }
    }
  })

  it('takes the quota a catalogue advertises in auto mode only, and 0 turns pacing off', async () => {
    const auto = pacedOn('auto')
    auto.pacer.adopt(30)
    expect(auto.pacer.requestsPerMinute).toBe(30)
    auto.pacer.adopt(0)
    auto.pacer.adopt('600')
    auto.pacer.adopt(1.5)
    expect(auto.pacer.requestsPerMinute).toBe(30)
    const fixed = pacedOn(60)
    fixed.pacer.adopt(600)
    expect(fixed.pacer.requestsPerMinute).toBe(60)
    const off = pacedOn(0)
    for (let i = 0; i < 1000; i++) await off.send()
    expect(off.waits).toEqual([])
  })

  it('refuses a pace that is not a whole number', () => {
    expect(() => new RequestPacer({ requestsPerMinute: -1 })).toThrow(/requestsPerMinute must be/)
    expect(() => new RequestPacer({ requestsPerMinute: 1.5 })).toThrow(/requestsPerMinute must be/)
  })
})
