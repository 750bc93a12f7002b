/**
 * What a served snapshot says about itself for the change feed and the download: its publication
 * id, its checksum, and what changed from the snapshot before it. Both are read from the snapshot's
 * columns (ids, ETags, record bytes) in id order, and the large ones are computed in slices that
 * give the event loop back between them: at 100 000 records, a checksum over every record's bytes
 * and a whole diff done at once stalled the server for 1.6 s at each reload (docs/scale.md holds
 * the event loop under 50 ms during one).
 */
import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RecordIndex } from '../search/record-index.js'
import type { RecordChange } from './change-log.js'

/**
 * The publication a snapshot is: PostgreSQL's publication number, which every replica shares; for a
 * records file, the snapshot's content version (equal records give an equal id on every replica).
 */
export const publicationIdOf = (index: RecordIndex): string =>
  index.snapshot === undefined ? index.version : String(index.snapshot.publication)

/** Bytes hashed, or records parsed, per slice: a few milliseconds of work each. */
const SLICE_BYTES = 2 << 20
const SLICE_RECORDS = 500

const checksums = new WeakMap<RecordIndex, Promise<string>>()
const finished = new WeakMap<RecordIndex, string>()

/**
 * SHA-256 (hex) of the snapshot's records in id order, each record's JSON text followed by "\n": the
 * bytes of an NDJSON mirror sorted by id, and PostgreSQL's snapshot checksum for the same records.
 * Computed once per snapshot, a slice at a time.
 */
export function snapshotChecksum(index: RecordIndex): Promise<string> {
  let checksum = checksums.get(index)
  if (checksum === undefined) {
    checksum = hashInSlices(index).then((hex) => {
      finished.set(index, hex)
      return hex
    })
    checksums.set(index, checksum)
  }
  return checksum
}

/**
 * The checksum when it is known without waiting: computed before, or computed now when the
 * snapshot's bytes fit in one slice (the sample, a test's records); undefined otherwise.
 */
export function checksumNow(index: RecordIndex): string | undefined {
  const known = finished.get(index)
  if (known !== undefined || index.arenaBytes.bytes > SLICE_BYTES) return known
  const hashing = hashSlices(index)
  let step = hashing.next()
  while (step.done !== true) step = hashing.next()
  finished.set(index, step.value)
  checksums.set(index, Promise.resolve(step.value))
  return step.value
}

async function hashInSlices(index: RecordIndex): Promise<string> {
  const hashing = hashSlices(index)
  for (let step = hashing.next(); ; step = hashing.next()) {
    if (step.done === true) return step.value
    await nextTurn()
  }
}

/** The checksum's one pass over the records, pausing (a yield) after each SLICE_BYTES hashed. */
function* hashSlices(index: RecordIndex): Generator<void, string> {
  const hash = createHash('sha256')
  let sliced = 0
  for (const doc of index.docsInIdOrder) {
    const bytes = index.bytesOf(doc)
    hash.update(bytes).update('\n')
    if ((sliced += bytes.length) >= SLICE_BYTES) {
      sliced = 0
      yield
    }
  }
  return hash.digest('hex')
}

/** A change found by comparing the columns: which record, in which snapshot (before for a removal). */
type ColumnChange = { change: RecordChange['change']; doc: number; from: RecordIndex }

/** The records `after` adds, changes and removes from `before`, in id order, without parsing a record. */
function changedDocs(before: RecordIndex, after: RecordIndex): ColumnChange[] {
  const [old, now] = [before.docsInIdOrder, after.docsInIdOrder]
  const changes: ColumnChange[] = []
  let [i, j] = [0, 0]
  while (i < old.length || j < now.length) {
    const c = i === old.length ? 1 : j === now.length ? -1 : before.compareIdWith(old[i]!, after, now[j]!)
    if (c < 0) changes.push({ change: 'removed', doc: old[i++]!, from: before })
    else if (c > 0) changes.push({ change: 'added', doc: now[j++]!, from: after })
    else {
      if (!after.sameRecordAs(now[j]!, before, old[i]!))
        changes.push({ change: 'changed', doc: now[j]!, from: after })
      i++
      j++
    }
  }
  return changes
}

const changeOf = ({ change, doc, from }: ColumnChange): RecordChange => ({
  id: from.idOf(doc),
  change,
  modifiedAt: from.entry(doc).record.modified_at ?? null,
})

/**
 * The records `after` adds, changes and removes from `before`, in id order, each with its
 * `modified_at` (the removed version's for a removal): at once when at most `atOnce` records
 * changed, else read a slice at a time. The columns are compared once either way.
 */
export function changesBetween(
  before: RecordIndex,
  after: RecordIndex,
  atOnce = SLICE_RECORDS,
): RecordChange[] | Promise<RecordChange[]> {
  const found = changedDocs(before, after)
  return found.length > atOnce ? readInSlices(found) : found.map(changeOf)
}

async function readInSlices(found: readonly ColumnChange[]): Promise<RecordChange[]> {
  const changes: RecordChange[] = []
  for (let at = 0; at < found.length; at += SLICE_RECORDS) {
    for (const change of found.slice(at, at + SLICE_RECORDS)) changes.push(changeOf(change))
    if (at + SLICE_RECORDS < found.length) await nextTurn()
  }
  return changes
}
