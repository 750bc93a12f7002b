import { describe, expect, it } from 'vitest'
import { fixedRateResult, parseH2loadLog, parseH2loadSummary } from './h2load.js'

// Real h2load 1.52 output (summary part) and --log-file lines.
const SUMMARY = `finished in 5.00s, 400.00 req/s, 8.22MB/s
requests: 1200 total, 1200 started, 1200 done, 1198 succeeded, 2 failed, 0 errored, 1 timeout
status codes: 1198 2xx, 0 3xx, 0 4xx, 2 5xx`

describe('parseH2loadSummary', () => {
  it('reads the totals and counts failed, errored and timed-out requests', () => {
    expect(parseH2loadSummary(SUMMARY)).toEqual({ total: 1200, failed: 3 })
  })

  it('throws without a summary', () => {
    expect(() => parseH2loadSummary('connect: Connection refused')).toThrow(/no summary/)
  })
})

describe('parseH2loadLog', () => {
  it('sorts latencies and counts responses outside 2xx/3xx', () => {
    const log = '1795213120341130\t200\t2532\n1795213120341123\t304\t5247\n1795213120341134\t503\t933\n\n'
    expect(parseH2loadLog(log)).toEqual({ latenciesUs: [933, 2532, 5247], errors: 1 })
  })

  it('ignores lines without the three columns', () => {
    expect(parseH2loadLog('garbage\n')).toEqual({ latenciesUs: [], errors: 0 })
  })
})

describe('fixedRateResult', () => {
  it('takes nearest-rank percentiles in ms and the achieved rate over the duration', () => {
    const latenciesUs = Array.from({ length: 1000 }, (_, i) => (i + 1) * 10) // 10 µs … 10 ms
    const r = fixedRateResult(250, 4, { latenciesUs, errors: 1 }, 2)
    expect(r).toEqual({
      offeredRps: 250,
      achievedRps: 250,
      requests: 1000,
      p50Ms: 5,
      p99Ms: 9.9,
      p999Ms: 9.99,
      errors: 3,
    })
  })

  it('throws when nothing completed', () => {
    expect(() => fixedRateResult(10, 1, { latenciesUs: [], errors: 0 }, 0)).toThrow(
      'h2load: no request completed',
    )
  })
})
