/**
 * A snapshot's changes and checksum read from its columns: the same answers whether computed at
 * once or a slice at a time, and swaps recorded in the order they came even when a slow one is
 * still being read.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { RecordIndex } from '../search/record-index.js'
import { MemoryChangeHistory } from './change-feed.js'
import type { RecordChange } from './change-log.js'
import { checksumNow, changesBetween, snapshotChecksum } from './snapshot-changes.js'

/** The diff read at once (these snapshots' changes are few). */
const diffNow = (before: RecordIndex, after: RecordIndex) => changesBetween(before, after) as RecordChange[]

const sample = JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as
  Fact[] | { records: Fact[] }
const records = Array.isArray(sample) ? sample : sample.records
const build = (list: Fact[]) => RecordIndex.build({ records: list })

const first = build(records)
// Removes the first ten, edits every seventh, adds one.
const edited = records
  .slice(10)
  .map((r, i) =>
    i % 7 === 0 ? { ...r, title: `${r.title} (modifiée)`, modified_at: '2026-11-27T10:00:00Z' } : r,
  )
const added: Fact = {
  ...records.filter((r) => r.kind === 'fact')[20]!,
  id: 'fait-ffffffffffffffff',
  url: 'https://exemple.fr/nouvelle',
}
const second = build([...edited, added])

describe('diff', () => {
  it('finds the additions, edits and removals in id order, each with its modified_at', () => {
    const changes = diffNow(first, second)
    const byKind = (kind: string) => changes.filter((c) => c.change === kind).map((c) => c.id)
    expect(byKind('removed').sort()).toEqual(
      records
        .slice(0, 10)
        .map((r) => r.id)
        .sort(),
    )
    expect(byKind('added')).toEqual(['fait-ffffffffffffffff'])
    expect(byKind('changed').sort()).toEqual(
      edited
        .filter((_, i) => i % 7 === 0)
        .map((r) => r.id)
        .sort(),
    )
    expect(changes.map((c) => c.id)).toEqual(changes.map((c) => c.id).sort()) // bytewise id order
    const edit = changes.find((c) => c.change === 'changed')!
    expect(edit.modifiedAt).toBe('2026-11-27T10:00:00Z')
    const removal = changes.find((c) => c.change === 'removed')!
    expect(removal.modifiedAt).toBe(records.find((r) => r.id === removal.id)!.modified_at ?? null)
  })

  it('reads the same a slice at a time', async () => {
    const sliced = changesBetween(first, second, 0)
    expect(sliced).toBeInstanceOf(Promise)
    expect(await sliced).toEqual(diffNow(first, second))
    expect(diffNow(first, build(records))).toEqual([])
  })
})

describe('checksum', () => {
  it('is SHA-256 of the records’ JSON lines sorted by id, at once or a slice at a time', async () => {
    const expected = createHash('sha256')
    for (const id of second.idsStartingWith('', second.size).sort())
      expected.update(second.get(id)!.bytes).update('\n')
    const hex = expected.digest('hex')
    const fresh = build([...edited, added])
    expect(await snapshotChecksum(fresh)).toBe(hex) // the sliced path: nothing computed before
    expect(checksumNow(second)).toBe(hex)
  })
})

describe('the in-memory history', () => {
  it('records swaps in their order, a swap after a slow one waiting for it', async () => {
    const history = new MemoryChangeHistory(100, 0) // every diff read in slices, as at 100 000 records
    expect(history.add(first)).toHaveLength(1)
    const third = build(records.slice(5))
    const slow = history.add(second)
    expect(slow).toBeInstanceOf(Promise)
    const after = history.add(third)
    expect(after).toBeInstanceOf(Promise) // waits for the slow one, though its own diff is not read yet
    const publications = await Promise.all([slow, after])
    expect(publications[0]!.map((p) => p.publication)).toEqual([first.version, second.version])
    expect(publications[1]!.at(-1)!.changes).toEqual(diffNow(second, third))
    expect(publications[1]!.map((p) => p.publication)).toEqual([first.version, second.version, third.version])
  })
})
