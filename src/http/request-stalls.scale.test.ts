/**
 * No single request stalls the service (issue 43): on 100 000 generated records, every address
 * (bench/lib/request-stalls.ts's probes: the API, pages, feeds, discovery documents, both downloads,
 * the MCP tools) is requested first after the snapshot is served, then again, by a prober process
 * started before the records are loaded; bench/request-stalls.ts runs the same on 1 000 000 for
 * docs/scale.md.
 *
 * What is judged is the serving thread's own CPU time in its longest turn during the request
 * (bench/lib/turn-monitor.ts): what the thread ran, not how long it waited for a core, so the
 * machine's load cannot trip it (a loaded run showed `/healthz` at 1 175 ms of loop delay while
 * idle, and 21 ms of CPU in its longest turn). Where the kernel does not give the thread's CPU time,
 * the loop delay less the largest delay of the same prober's idle windows in the same run is judged.
 * The bound catches a document built on the serving thread at its first request (the sitemap's took
 * 3.4 s at this size, the DCAT description 1.1 s, the first download 2 s); at this size every first
 * request stays under 60 ms of CPU on the build machine.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { measureStalls, probes, stallTable } from '../../bench/lib/request-stalls.js'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { writeLines } from '../../scripts/corpus/ndjson-writer.js'
import type { Fact } from '../core/records/record.js'

const RECORDS = 100_000
/** CPU of the serving thread in one turn, in ms: four times the largest seen at this size, a twentieth of the sitemap's old build. */
const BOUND_MS = 250

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
  const run = await measureStalls(file, probes(id))
  console.log(`load average ${run.load.start.toFixed(1)}–${run.load.end.toFixed(1)}\n${stallTable(run)}`)

  for (const s of run.stalls) expect(s.status, s.name).toBeLessThan(500)
  for (const name of [
    '/sitemap.xml',
    '/sitemaps/1.xml',
    '/catalog.jsonld (DCAT)',
    '/llms.txt',
    '/api/v1/facts.ndjson',
    '/api/v1/changes',
  ])
    expect(run.stalls.find((s) => s.name === name)?.status, name).toBe(200)
  const gzip = run.stalls.find((s) => s.name === '/api/v1/facts.ndjson, gzip')!
  expect(gzip.status).toBe(200)

  const noise = Math.max(...run.stalls.map((s) => s.idle.loopDelayMs))
  const held = (s: (typeof run.stalls)[number]) =>
    Number.isNaN(s.first.turnCpuMs) ? s.first.loopDelayMs - noise : s.first.turnCpuMs
  const slow = run.stalls.filter((s) => held(s) > BOUND_MS).map((s) => `${s.name}: ${held(s).toFixed(0)} ms`)
  expect(slow).toEqual([])
}, 900_000)
