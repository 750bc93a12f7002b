/**
 * A snapshot built on several threads (an NDJSON file read in parts, each part in its own worker)
 * is the snapshot one thread builds: same records in the same order, same listing, same answers,
 * same version; and a bad line in any part is reported as a whole read reports it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import type { Fact } from '../../src/core/records/record.js'
import { RecordIndex, toIndexQuery } from '../../src/core/search/record-index.js'
import { buildThreads, failureOf, startBuildThread } from '../../src/core/snapshots/build-thread.js'
import { loadInProcess, loadInWorker } from '../../src/core/snapshots/load-snapshot.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }
).records
const lines = [...new CorpusGenerator({ sample, seed: 'parallel' }).records(3_000)].map((r) =>
  JSON.stringify(r),
)
const dir = mkdtempSync(join(tmpdir(), 'parallel-build-'))
const write = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const inParts = { threads: 3, minPartBytes: 64 * 1024 }

function answers(index: RecordIndex) {
  const queries = [
    { q: 'vitesse' },
    { q: 'priorité à droite' },
    { q: 'la', limit: 50, offset: 100 },
    { kind: 'lesson' as const },
    { region: 'france' as const, offset: 2000 },
  ]
  return {
    size: index.size,
    version: index.version,
    countsByKind: index.countsByKind,
    listed: index.listed(0, index.size).map((r) => [r.record.id, r.etag, r.bytes.toString()]),
    searches: queries.map((q) => {
      const page = index.search(toIndexQuery({ limit: 20, offset: 0, ...q }))
      return {
        total: page.total,
        ids: page.results.map((r) => r.record.id),
        interpretation: page.interpretation,
      }
    }),
  }
}

/**
 * Each build starts its threads, and each thread loads the sources through tsx: about a second on a
 * quiet machine, 9 s at a load average of 23, where the reload case (three builds on threads) took
 * 38 s, past the default 30 s (issue 43). The bound is for a build that never ends, not for speed.
 */
const BUILDS_TIMEOUT_MS = 180_000

describe('a build on several threads', { timeout: BUILDS_TIMEOUT_MS }, () => {
  it('serves what one thread builds', async () => {
    const path = write('corpus.ndjson', `${lines.join('\n')}\n`)
    expect(await new FileRecordSource(path).split(inParts.threads, inParts.minPartBytes)).toHaveLength(3)
    const [parallel, single] = await Promise.all([
      loadInWorker(new FileRecordSource(path), inParts),
      loadInProcess(new FileRecordSource(path)),
    ])
    expect(parallel.size).toBe(3_000)
    expect(answers(parallel)).toEqual(answers(single))
  })

  it('reports a bad line of a later part by its line in the file', async () => {
    const bad = [...lines]
    bad[2_500] = '{"id": oops}'
    const path = write('bad-json.ndjson', bad.join('\n'))
    await expect(loadInWorker(new FileRecordSource(path), inParts)).rejects.toThrow(
      /line 2501, column 8: not valid JSON/,
    )
  })

  it('reports invalid records and duplicates of every part, as one read does', async () => {
    const bad = [...lines]
    bad[2_900] = bad[10]!
    const path = write('duplicate.ndjson', bad.join('\n'))
    const single = await loadInProcess(new FileRecordSource(path)).catch((err: Error) => err.message)
    expect(single).toMatch(/line 2901 .*duplicate id, first used by line 11/)
    await expect(loadInWorker(new FileRecordSource(path), inParts)).rejects.toThrow(single as string)
  })

  it('reloads on every thread over the served snapshot: unchanged records stay in its memory', async () => {
    const path = write('served.ndjson', `${lines.join('\n')}\n`)
    const served = await loadInWorker(new FileRecordSource(path), inParts)
    // Arrays a reload's threads read in place, not copies.
    const previous = served.previousRecords()
    for (const array of [previous.etags, previous.byId, previous.recordArena, previous.recordStart])
      expect(array.buffer).toBeInstanceOf(SharedArrayBuffer)
    const unchanged = await loadInWorker(new FileRecordSource(path), { ...inParts, serving: served })
    expect(answers(unchanged)).toEqual(answers(served))
    expect(unchanged.sharedBytesWith(served)).toBe(served.arenaBytes.bytes)
    // Every 10th record changes: only those are written again, and the rest is what a fresh build serves.
    const changed = lines.map((line, i) =>
      i % 10 === 0 ? line.replace('"title":"', '"title":"Revu : ') : line,
    )
    const changedPath = write('changed.ndjson', `${changed.join('\n')}\n`)
    const next = await loadInWorker(new FileRecordSource(changedPath), { ...inParts, serving: unchanged })
    expect(answers(next)).toEqual(answers(await loadInProcess(new FileRecordSource(changedPath))))
    const written = next.arenaBytes.bytes - next.sharedBytesWith(unchanged)
    expect(written).toBeGreaterThan(0)
    expect(written).toBeLessThan(0.11 * next.arenaBytes.bytes)
  })

  it('sees a build thread that stops without answering, instead of waiting for it', async () => {
    const worker = startBuildThread(false)
    const failed = failureOf(worker, 'test')
    worker.postMessage({ role: 'part', spec: null, origin: 'test' }) // it cannot even open its source
    await expect(failed).rejects.toThrow(
      /test: a snapshot build thread stopped \(exit code 1\)|Cannot read properties of null/,
    )
    await worker.terminate()
  })

  it('uses every core for a first build, and leaves one to serving for a reload', () => {
    expect(buildThreads({}, 2)).toBe(2)
    expect(buildThreads({ beside: true }, 2)).toBe(1)
    expect(buildThreads({ beside: true }, 1)).toBe(1)
    expect(buildThreads({ beside: true }, 8)).toBe(7)
  })
})
