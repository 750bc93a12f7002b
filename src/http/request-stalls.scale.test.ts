/**
 * No single request stalls the service (issue 43): on 100 000 generated records, each endpoint is
 * requested once, first after the snapshot is served, and the serving thread's longest event-loop
 * delay meanwhile is measured (bench/lib/request-stalls.ts; bench/request-stalls.ts runs it on
 * 1 000 000 for docs/scale.md). The bound here is generous, for a busy machine: what it catches is
 * a document built on the serving thread at its first request (the sitemap's took 3.4 s at this size,
 * the catalogue's 1.1 s, the first download's 2 s).
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { measureStalls } from '../../bench/lib/request-stalls.js'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { writeLines } from '../../scripts/corpus/ndjson-writer.js'
import type { Fact } from '../core/records/record.js'

const RECORDS = 100_000
/** Far above the 50 ms aimed at (a busy machine alone stalls a process for hundreds of milliseconds), far below what building a document at this size took: the sitemap 3.4 s on a quiet machine. */
const BOUND_MS = 2_000

const dir = mkdtempSync(join(tmpdir(), 'rr-stalls-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it(`no first request to any endpoint holds the serving thread ${BOUND_MS} ms at ${RECORDS} records`, async () => {
  const sample = (
    JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
      records: Fact[]
    }
  ).records
  const file = join(dir, 'corpus.ndjson')
  const generator = new CorpusGenerator({ sample, seed: '1' })
  await writeLines(generator.lines(RECORDS), createWriteStream(file))
  const id = (
    JSON.parse(
      readFileSync(file, 'utf8')
        .slice(0, 64 * 1024)
        .split('\n', 1)[0]!,
    ) as Fact
  ).id
  const { stalls } = await measureStalls(file, id)
  console.log(
    stalls
      .map(
        (s) =>
          `${s.stallMs.toFixed(0).padStart(6)} ms ${s.againStallMs.toFixed(0).padStart(5)} ms  ${s.encoding} ${s.path}`,
      )
      .join('\n'),
  )
  for (const s of stalls) expect(s.status, s.path).toBeLessThan(500)
  const sitemap = stalls.find((s) => s.path === '/sitemap.xml')!
  expect(sitemap.status).toBe(200)
  const slow = stalls.filter((s) => s.stallMs > BOUND_MS).map((s) => `${s.path}: ${s.stallMs.toFixed(0)} ms`)
  expect(slow).toEqual([])
}, 600_000)
