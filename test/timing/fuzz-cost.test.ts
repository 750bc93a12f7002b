/**
 * One request never holds the event loop long (issue 32), stated so that a busy machine cannot trip
 * it (issue 43, item 7): fuzzed cases (test/fuzz/cases.ts) are sent one at a time, each timed by the
 * service's main-thread CPU while it is answered, and the costliest per request is compared with an
 * ordinary uncached search timed the same way in the same run (harness.ts,
 * referenceCpuPerRequestMs). test/fuzz/fuzz.test.ts keeps the functional guarantees (no 5xx, CORS,
 * one response per request, the process up, memory bounded) and states no time.
 */
import { expect, it } from 'vitest'
import { describeCost, referenceCpuPerRequestMs, runFuzz } from '../fuzz/harness.js'
import { SAMPLE_IDS, startFuzzTarget } from '../fuzz/service.js'

/** How many ordinary searches' CPU the costliest fuzzed request may take. */
const RATIO = 60
/** Below this an ordinary search's CPU measures the kernel's accounting more than the service. */
const REFERENCE_FLOOR_MS = 2

it(`no fuzzed request costs the event loop more than ${RATIO} ordinary searches`, async () => {
  const target = await startFuzzTarget({ RATE_LIMIT_PER_MINUTE: '9999999' })
  try {
    // Warm-up: the first search of the snapshot makes its word lists, which no later request pays.
    await referenceCpuPerRequestMs(target.port, target.pid, 10)
    const before = await referenceCpuPerRequestMs(target.port, target.pid)
    const stats = await runFuzz({
      port: target.port,
      pid: target.pid,
      seed: `${process.env.FUZZ_SEED ?? 'npm-test'}-cost`,
      durationMs: 15_000,
      costPhaseMs: 15_000,
      ids: SAMPLE_IDS,
    })
    const after = await referenceCpuPerRequestMs(target.port, target.pid)
    const reference = Math.max(before, after, REFERENCE_FLOOR_MS)
    console.log(
      `${describeCost(stats)}\nreference search: ${before.toFixed(2)} ms before, ${after.toFixed(2)} ms after (×${(stats.worst!.cpuPerRequestMs / reference).toFixed(1)} of ${reference.toFixed(2)} ms, at most ×${RATIO})`,
    )
    expect(stats.violations).toEqual([])
    expect(stats.costCases).toBeGreaterThan(50)
    expect(stats.worst!.cpuPerRequestMs).toBeLessThanOrEqual(RATIO * reference)
  } finally {
    expect(await target.stop()).toBe(0)
  }
}, 120_000)
