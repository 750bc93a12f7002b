/**
 * Building a snapshot grows linearly with its records (issue 17): twice the records may take at most
 * 2.4 times as long. Measured in-process, best of five runs per size, the two sizes alternating so
 * that a slow minute of the machine slows both alike; the sizes are large enough that per-build
 * constants do not hide a superlinear term. It is in the `timing` project, which runs after every
 * other test file and alone: beside the e2e files' servers and builds a CI run measured ×2.89.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import type { Fact } from '../../src/core/records/record.js'
import { SnapshotBuilder } from '../../src/core/search/snapshot-builder.js'

const sample = (JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }).records
const records = [...new CorpusGenerator({ sample, seed: 'growth' }).records(24_000)].map((r) => JSON.parse(JSON.stringify(r)) as unknown)

function buildMs(count: number): number {
  const started = performance.now()
  const builder = new SnapshotBuilder('growth')
  for (let i = 0; i < count; i++) builder.add(records[i], `line ${i + 1}`)
  builder.finish()
  return performance.now() - started
}

it('builds twice the records in at most 2.4 times as long', () => {
  buildMs(2_000) // warm-up: the first build also compiles the code
  let [single, double] = [Infinity, Infinity]
  for (let run = 0; run < 5; run++) {
    single = Math.min(single, buildMs(12_000))
    double = Math.min(double, buildMs(24_000))
  }
  console.log(`snapshot build: 12 000 records ${single.toFixed(0)} ms, 24 000 records ${double.toFixed(0)} ms (×${(double / single).toFixed(2)})`)
  expect(double / single).toBeLessThanOrEqual(2.4)
}, 120_000)
