/**
 * Nothing the snapshot's storage or its searcher is given is changed by them: the built
 * `SnapshotData` (on a first load, with its answers prepared, and on a reload that lets arenas go)
 * and the queries. Its objects and arrays are frozen, so that an assignment throws (ESM is strict);
 * typed arrays cannot be frozen, so their bytes are copied first and compared after.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { RecordIndex, toIndexQuery, withPreparedAnswers, type IndexQuery } from './record-index.js'
import { SnapshotBuilder, type SnapshotBuilderOptions } from './snapshot-builder.js'
import type { SnapshotData } from './snapshot-data.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records

/** Small arenas, so that the sample fills several and a reload can leave some unused. */
function build(records: readonly Fact[], options: SnapshotBuilderOptions = {}): SnapshotData {
  const builder = new SnapshotBuilder('unchanged', { arenaBytes: 16 * 1024, ...options })
  records.forEach((record, i) => builder.add(record, `line ${i + 1}`))
  return builder.finish({ publishedAt: '2026-12-01T09:00:00.000Z' })
}

type Held = { view: ArrayBufferView; bytes: Buffer }

/** `value` with every object and array in it frozen, and each typed array's bytes noted in `held`. */
function frozen<T>(value: T, held: Held[], seen = new Set<unknown>()): T {
  if (typeof value !== 'object' || value === null || seen.has(value)) return value
  seen.add(value)
  if (ArrayBuffer.isView(value)) {
    held.push({ view: value, bytes: Buffer.from(bytesOf(value)) })
    return value
  }
  for (const field of Object.values(value)) frozen(field, held, seen)
  return Object.freeze(value)
}

const bytesOf = (view: ArrayBufferView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength)

/** The typed arrays whose bytes changed since they were noted: none, or the test fails naming them. */
const changed = (held: readonly Held[]) =>
  held.filter(({ view, bytes }) => !bytes.equals(bytesOf(view))).map(({ view }) => view.constructor.name)

const queries: readonly IndexQuery[] = (
  [
    { q: 'vitesse', limit: 10, offset: 0 },
    { q: 'permis', kind: 'fact', limit: 5, offset: 2 },
    { q: 'priorité à droite', region: 'france', limit: 10, offset: 0 },
    { q: 'alcool jeune conducteur zorglub', match: 'best', limit: 10, offset: 0 },
    { q: 'vitesse zorglub', limit: 10, offset: 0 }, // nothing: relaxed queries are searched
    { q: 'la', limit: 10, offset: 0 }, // stop words only
    { q: '', kind: 'fact', region: 'france', limit: 10, offset: 0 },
    { limit: 20, offset: 10 },
  ] satisfies Parameters<typeof toIndexQuery>[0][]
).map((query) => Object.freeze(toIndexQuery(query)))

/** Everything a reader can ask a snapshot, each query twice (the second reads what the first kept). */
function readEverything(index: RecordIndex): unknown[] {
  const answers: unknown[] = []
  for (const round of [1, 2])
    for (const query of queries) {
      const page = index.search(query)
      answers.push(
        round,
        page.total,
        page.results.map((r) => r.record.id),
        page.interpretation,
      )
    }
  const first = sample[0]!
  answers.push(index.get(first.id)?.etag, index.findByUrl(first.url)?.doc, index.idsStartingWith('fait', 5))
  answers.push(index.listed(3, 4).length, [...index.inListingOrder()].length, index.docsOfKind('fact').length)
  answers.push(index.copyListing(0, Buffer.alloc(index.longestRecord + 1)), index.ndjsonBytes)
  answers.push(index.previousRecords().byId.length, index.sitemapColumns.count, index.lastChangeOf(0))
  return answers
}

describe('what a snapshot is given stays as it was given', () => {
  it('on a first load, searched and read', () => {
    const held: Held[] = []
    const data = frozen(build(sample), held)
    expect(held.length).toBeGreaterThan(20)
    const answers = readEverything(new RecordIndex(data))
    expect(answers).toEqual(readEverything(new RecordIndex(build(sample))))
    expect(changed(held)).toEqual([])
  })

  it('when its answers are prepared, and by the snapshot served from them', () => {
    const held: Held[] = []
    const data = frozen(build(sample), held)
    const options = Object.freeze({ minDocuments: 1, maxWords: 16, depth: 20 })
    const prepared = frozen(withPreparedAnswers(data, options), held)
    const index = new RecordIndex(prepared)
    expect(index.preparedAnswers).toBeGreaterThan(0)
    readEverything(index)
    expect(changed(held)).toEqual([])
  })

  it('on a reload that lets go of the arenas no record uses any more, and renumbers the rest', () => {
    const servedHeld: Held[] = []
    const served = new RecordIndex(frozen(build(sample), servedHeld))
    // The first records fill the first arenas: without them, those arenas are let go.
    const held: Held[] = []
    const rest = sample.slice(30)
    const data = frozen(build(rest, { previous: served.previousRecords() }), held)
    expect(data.inherited).toBeGreaterThan(0)
    const next = new RecordIndex(data, { previous: served })
    expect(next.arenaBytes.arenas).toBeLessThan(served.arenaBytes.arenas)
    const answers = readEverything(next)
    expect(answers).toEqual(readEverything(new RecordIndex(build(rest))))
    expect(changed(held)).toEqual([])
    expect(changed(servedHeld)).toEqual([])
  })
})
