/**
 * The bounded fuzz run of `npm test` (issue 10): ~60 s of generated requests against the real
 * process (see cases.ts and harness.ts for what is sent and checked). `npm run fuzz` runs the same
 * for longer, with a seed of your choice.
 */
import { expect, it } from 'vitest'
import { MAX_RSS_MIB, MAX_SECOND_HALF_GROWTH_MIB, describeCost, runFuzz } from './harness.js'
import { SAMPLE_IDS, startFuzzTarget } from './service.js'

const SEED = process.env.FUZZ_SEED ?? 'npm-test'

it.each([
  ['quota on, high limit', '9999999', 45_000],
  ['quota on, 30 per minute', '30', 12_000],
])(
  '%s: no 5xx, an error body and CORS on every error, one response per request, the process up, memory bounded',
  async (_name, perMinute, durationMs) => {
    const target = await startFuzzTarget({ RATE_LIMIT_PER_MINUTE: perMinute })
    try {
      const stats = await runFuzz({
        port: target.port,
        pid: target.pid,
        seed: `${SEED}-${perMinute}`,
        durationMs,
        ids: SAMPLE_IDS,
      })
      console.log(
        `fuzz (${perMinute}/min): ${stats.cases} cases, ${stats.requests} requests, ${stats.responses} responses in ${stats.seconds.toFixed(0)} s; RSS ${Math.round(stats.rssStartKiB / 1024)} → ${Math.round(stats.rssEndKiB / 1024)} MiB (max ${Math.round(stats.rssMaxKiB / 1024)}, +${Math.round(stats.rssSecondHalfGrowthKiB / 1024)} in the second half); statuses ${JSON.stringify(stats.byStatus)}\n${describeCost(stats)}`,
      )
      expect(stats.violations).toEqual([])
      expect(stats.cases).toBeGreaterThan(1_000)
      expect(stats.rssSecondHalfGrowthKiB).toBeLessThan(MAX_SECOND_HALF_GROWTH_MIB * 1024)
      expect(stats.rssMaxKiB).toBeLessThan(MAX_RSS_MIB * 1024)
      // The cost phase ran (its figures are printed above); how much one request may cost is judged
      // in the timing tier, against a reference of the same run (test/timing/fuzz-cost.test.ts).
      expect(stats.costCases).toBeGreaterThan(0)
    } finally {
      expect(await target.stop()).toBe(0)
    }
    // No error-level line: a client, however hostile, causes no server error.
    expect(target.spawned.stdout()).not.toMatch(/"level":(50|60)/)
  },
  120_000,
)
