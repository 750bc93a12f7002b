import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { COMPACTION_BUDGET, MAX_KEPT_ARENAS, arenasToKeep } from './previous-records.js'
import { RecordIndex, toIndexQuery } from './record-index.js'
import { SnapshotBuilder, partTransferList, type SnapshotBuilderOptions } from './snapshot-builder.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const info = { publishedAt: '2026-11-25T09:00:00.000Z' }
/** Small arenas, so that the sample fills several (about ten records each). */
const SMALL_ARENAS = { arenaBytes: 16 * 1024 }

function build(records: readonly Fact[], options: SnapshotBuilderOptions = {}) {
  const builder = new SnapshotBuilder('reuse', { ...SMALL_ARENAS, ...options })
  records.forEach((record, i) => builder.add(record, `line ${i + 1}`))
  return builder.finish(info)
}

/** A reload of `records` beside `served`, as the service makes it. */
const reload = (served: RecordIndex, records: readonly Fact[], options: SnapshotBuilderOptions = {}) =>
  new RecordIndex(build(records, { ...options, previous: served.previousRecords() }), { previous: served })

/** Everything a reader sees of a snapshot: each record's bytes and ETag in listing order, and some answers. */
function seen(index: RecordIndex) {
  const records = [...index.inListingOrder()].map((entry) => [entry.etag, entry.bytes.toString('base64')])
  const searches = ['vitesse', 'priorité à droite', 'permis'].map((q) =>
    index.search(toIndexQuery({ q, limit: 20, offset: 0 })).results.map((r) => r.doc),
  )
  return { version: index.version, records, searches }
}

const retitled = (record: Fact): Fact => ({ ...record, title: `${record.title} (revu)` })

describe('a reload over the served snapshot', () => {
  const served = new RecordIndex(build(sample))

  it('keeps every record of an unchanged source where it was, and writes none again', () => {
    const next = reload(served, sample)
    expect(served.arenaBytes.arenas).toBeGreaterThan(10)
    expect(next.arenaBytes).toEqual(served.arenaBytes)
    expect(next.sharedBytesWith(served)).toBe(served.arenaBytes.bytes)
    for (const record of sample)
      expect(next.get(record.id)!.bytes.buffer).toBe(served.get(record.id)!.bytes.buffer)
    expect(seen(next)).toEqual(seen(served))
  })

  it('writes only the records that changed or came, and serves what a fresh build serves', () => {
    const changed = new Set([sample[3]!.id, sample[100]!.id, sample[200]!.id])
    const gone = new Set([sample[7]!.id, sample[150]!.id])
    const added: Fact = { ...sample[0]!, id: 'fait-00000000000000aa', title: 'Un fait nouveau' }
    const records = [
      ...sample.filter((r) => !gone.has(r.id)).map((r) => (changed.has(r.id) ? retitled(r) : r)),
      added,
    ]
    const next = reload(served, records)
    expect(seen(next)).toEqual(seen(new RecordIndex(build(records))))
    for (const record of records) {
      const same = !changed.has(record.id) && record !== added
      expect(next.get(record.id)!.bytes.buffer === served.get(record.id)?.bytes.buffer, record.id).toBe(same)
    }
    for (const id of gone) expect(next.get(id)).toBeUndefined()
    const written = [...changed, added.id].reduce((n, id) => n + next.get(id)!.bytes.length, 0)
    expect(next.arenaBytes.bytes - next.sharedBytesWith(served)).toBe(written)
  })

  it('lets go of an arena none of whose records is served any more', () => {
    const firstArena = [...served.inListingOrder()].filter(
      (entry) => entry.bytes.buffer === served.get(sample[0]!.id)!.bytes.buffer,
    )
    const leaving = new Set(firstArena.map((entry) => entry.record.id))
    const next = reload(
      served,
      sample.filter((r) => !leaving.has(r.id)),
    )
    expect(next.arenaBytes.arenas).toBe(served.arenaBytes.arenas - 1)
    expect(next.sharedBytesWith(served)).toBe(next.arenaBytes.bytes)
  })

  it('writes again, at the next reload, the records left in an arena most of whose records changed', () => {
    const arena = served.get(sample[0]!.id)!.bytes.buffer
    const inIt = sample.filter((r) => served.get(r.id)!.bytes.buffer === arena)
    const changed = new Set(inIt.slice(1).map((r) => r.id))
    const records = sample.map((r) => (changed.has(r.id) ? retitled(r) : r))
    // The reload that changes them writes them elsewhere: the first record stays, alone in its arena.
    const next = reload(served, records)
    expect(next.get(inIt[0]!.id)!.bytes.buffer).toBe(arena)
    // The next reload finds that arena mostly empty, and writes its last record again.
    const after = reload(next, records)
    expect(after.get(inIt[0]!.id)!.bytes.buffer).not.toBe(arena)
    expect(after.get(inIt[0]!.id)!.bytes.equals(served.get(inIt[0]!.id)!.bytes)).toBe(true)
    // That arena is let go; only its last record was written again.
    const arenaSize = inIt.reduce((n, r) => n + served.get(r.id)!.bytes.length, 0)
    expect(after.sharedBytesWith(next)).toBe(next.arenaBytes.bytes - arenaSize)
    expect(after.arenaBytes.bytes).toBe(after.sharedBytesWith(next) + next.get(inIt[0]!.id)!.bytes.length)
    expect(seen(after)).toEqual(seen(next))
  })

  it('builds the same in parts, each part reading the served snapshot', () => {
    const records = sample.map((r, i) => (i % 40 === 0 ? retitled(r) : r))
    const previous = served.previousRecords()
    const [first, later] = [
      new SnapshotBuilder('reuse', { ...SMALL_ARENAS, previous }),
      new SnapshotBuilder('reuse', { ...SMALL_ARENAS, previous }),
    ]
    records.forEach((record, i) => (i < 130 ? first : later).add(record, `line ${i + 1}`))
    const part = later.part()
    first.absorb(structuredClone(part, { transfer: partTransferList(part) }))
    const inParts = new RecordIndex(first.finish(info), { previous: served })
    const whole = reload(served, records)
    expect(seen(inParts)).toEqual(seen(whole))
    expect(inParts.sharedBytesWith(served)).toBe(whole.sharedBytesWith(served))
  })

  it('reads no record of the served snapshot without it', () => {
    const data = build(sample, { previous: served.previousRecords() })
    expect(() => new RecordIndex(data).get(sample[0]!.id)).toThrow(/held by the previous snapshot/)
  })
})

describe('arenasToKeep', () => {
  it('compacts the emptiest arenas under three quarters live, within the budget', () => {
    // 280 live bytes: a budget of 56. The emptiest (10 live) fits; the next (70 live) does not.
    expect(COMPACTION_BUDGET).toBe(0.2)
    expect([...arenasToKeep([100, 100, 100, 100], [100, 10, 70, 100])]).toEqual([1, 0, 1, 1])
    expect([...arenasToKeep([100, 100, 100, 100, 100], [100, 10, 40, 100, 100])]).toEqual([1, 0, 0, 1, 1])
  })

  it('keeps no arena without live records, and at most MAX_KEPT_ARENAS, the largest', () => {
    expect([...arenasToKeep([100, 100], [0, 100])]).toEqual([0, 1])
    const count = MAX_KEPT_ARENAS + 5
    const live = Array.from({ length: count }, (_, k) => 1_000 + k)
    const keep = arenasToKeep(live, live)
    expect(keep.reduce((a, b) => a + b, 0)).toBe(MAX_KEPT_ARENAS)
    expect([...keep.subarray(0, 5)]).toEqual([0, 0, 0, 0, 0])
  })
})
