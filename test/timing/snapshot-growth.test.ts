/**
 * Building a snapshot grows linearly with its records (issue 17): twice the records may take at most
 * 2.4 times as long. Measured in-process, best of seven runs per size, the two sizes alternating so
 * that a slow minute of the machine slows both alike; the sizes are large enough that per-build
 * constants do not hide a superlinear term.
 *
 * What keeps other work out of the figure: the test is in the `timing` project, which runs after
 * every other test file and alone (beside the e2e files' servers and builds a CI run measured
 * ×2.89); each build starts after a full garbage collection, so none pays for the garbage of the one
 * before; and a build's time is the CPU the process spent on it (its threads and the garbage
 * collector's), which the other processes of a shared machine cannot lengthen as they do the wall
 * clock (a CI run alone measured ×2.28 on the wall clock, against ×1.99–2.05 in other runs).
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import type { Fact } from '../../src/core/records/record.js'
import { SnapshotBuilder } from '../../src/core/search/snapshot-builder.js'
import { collectGarbage } from '../support/garbage.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }
).records
const records = [...new CorpusGenerator({ sample, seed: 'growth' }).records(24_000)].map(
  (r) => JSON.parse(JSON.stringify(r)) as unknown,
)

/** CPU milliseconds (user and system, every thread of the process) and wall milliseconds of one build. */
function build(count: number): { cpu: number; wall: number } {
  collectGarbage()
  const [cpuBefore, wallBefore] = [process.cpuUsage(), performance.now()]
  const builder = new SnapshotBuilder('growth')
  for (let i = 0; i < count; i++) builder.add(records[i], `line ${i + 1}`)
  builder.finish()
  const { user, system } = process.cpuUsage(cpuBefore)
  return { cpu: (user + system) / 1_000, wall: performance.now() - wallBefore }
}

it('builds twice the records in at most 2.4 times as long', () => {
  build(2_000) // warm-up: the first build also compiles the code
  const best = { single: { cpu: Infinity, wall: Infinity }, double: { cpu: Infinity, wall: Infinity } }
  for (let run = 0; run < 7; run++) {
    for (const [size, count] of [
      ['single', 12_000],
      ['double', 24_000],
    ] as const) {
      const { cpu, wall } = build(count)
      best[size].cpu = Math.min(best[size].cpu, cpu)
      best[size].wall = Math.min(best[size].wall, wall)
    }
  }
  const ratio = best.double.cpu / best.single.cpu
  console.log(
    `snapshot build: 12 000 records ${best.single.cpu.toFixed(0)} ms of CPU, 24 000 records ${best.double.cpu.toFixed(0)} ms (×${ratio.toFixed(2)}; ` +
      `wall clock ${best.single.wall.toFixed(0)} and ${best.double.wall.toFixed(0)} ms, ×${(best.double.wall / best.single.wall).toFixed(2)})`,
  )
  expect(ratio).toBeLessThanOrEqual(2.4)
}, 180_000)
