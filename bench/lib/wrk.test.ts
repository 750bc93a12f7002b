import { describe, expect, it } from 'vitest'
import { parseDurationMs, parseWrkOutput, parseWrkText } from './wrk.js'

// Real output of wrk 4.1.0 (Debian) with --latency and bench/wrk/mix.lua, against the reference.
const OUTPUT = `Running 5s test @ http://127.0.0.1:18101
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   709.45us    0.93ms  39.23ms   96.80%
    Req/Sec    44.94k     7.52k   48.10k    94.00%
  Latency Distribution
     50%  657.00us
     75%  753.00us
     90%  843.00us
     99%    4.09ms
  223454 requests in 5.00s, 4.48GB read
Requests/sec:  44681.37
Transfer/sec:      0.90GB
BENCH_JSON {"requests":223454,"duration_us":5001055,"bytes":4812752252,"errors":{"connect":0,"read":0,"write":0,"status":0,"timeout":0},"latency_us":{"p50":657,"p90":843,"p99":4087,"p999":10933,"max":39227,"mean":709.4}}
`

describe('parseWrkOutput', () => {
  it('reads the BENCH_JSON line of mix.lua', () => {
    const r = parseWrkOutput(OUTPUT)
    expect(r.requests).toBe(223454)
    expect(r.rps).toBeCloseTo(223454 / 5.001055, 3)
    expect(r.bytesPerRequest).toBeCloseTo(4812752252 / 223454, 3)
    expect([r.p50Ms, r.p90Ms, r.p99Ms, r.maxMs]).toEqual([0.657, 0.843, 4.087, 39.227])
    expect(r.errors).toBe(0)
  })

  it('adds socket errors and non-2xx/3xx responses', () => {
    const out = OUTPUT.replace(
      '"connect":0,"read":0,"write":0,"status":0,"timeout":0',
      '"connect":1,"read":2,"write":0,"status":40,"timeout":3',
    )
    expect(parseWrkOutput(out).errors).toBe(46)
  })

  it('falls back to the text summary without the JSON line', () => {
    const r = parseWrkOutput(OUTPUT.replace(/^BENCH_JSON.*$/m, ''))
    expect(r.rps).toBe(44681.37)
    expect(r.p99Ms).toBe(4.09)
  })
})

describe('parseWrkText', () => {
  it('reads throughput, latency distribution, bytes and errors', () => {
    const out = OUTPUT.replace(/^BENCH_JSON.*$/m, '').replace(
      'Requests/sec:',
      'Socket errors: connect 0, read 3, write 0, timeout 2\n  Non-2xx or 3xx responses: 7\nRequests/sec:',
    )
    const r = parseWrkText(out)
    expect(r.requests).toBe(223454)
    expect(r.durationS).toBe(5)
    expect(r.p50Ms).toBe(0.657)
    expect(r.p90Ms).toBe(0.843)
    expect(r.maxMs).toBe(39.23)
    expect(r.bytesPerRequest).toBeCloseTo((4.48 * 1024 ** 3) / 223454, 0)
    expect(r.errors).toBe(12)
  })

  it('throws naming what is missing', () => {
    expect(() => parseWrkText('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      /no request count/,
    )
  })
})

describe('parseDurationMs', () => {
  it('converts wrk units to milliseconds', () => {
    expect(parseDurationMs('657.00us')).toBeCloseTo(0.657)
    expect(parseDurationMs('4.09ms')).toBe(4.09)
    expect(parseDurationMs('1.50s')).toBe(1500)
    expect(parseDurationMs('2.00m')).toBe(120000)
  })

  it('refuses anything else', () => {
    expect(() => parseDurationMs('fast')).toThrow('wrk: unreadable duration "fast"')
  })
})
