/**
 * What a served snapshot says about itself for the change feed and the download: its publication
 * id, its checksum, and what changed from the snapshot before it. Computed from the records' ETags
 * (a SHA-256 of each record's bytes), so two snapshots are compared without reading a record twice.
 */
import { createHash } from 'node:crypto'
import { compareIds } from '../records/postgres/checksum.js'
import type { RecordIndex } from '../search/record-index.js'
import type { RecordChange } from './change-log.js'

/**
 * The publication a snapshot is: PostgreSQL's publication number, which every replica shares; for a
 * records file, the snapshot's content version (equal records give an equal id on every replica).
 */
export const publicationIdOf = (index: RecordIndex): string =>
  index.snapshot === undefined ? index.version : String(index.snapshot.publication)

/** Every id of a snapshot in bytewise order (the checksum's, and the feed's within a publication). */
function idsInOrder(index: RecordIndex): string[] {
  return index.idsStartingWith('', index.size).sort(compareIds)
}

const checksums = new WeakMap<RecordIndex, string>()

/**
 * SHA-256 (hex) of the snapshot's records in id order, each record's JSON text followed by "\n": the
 * bytes of an NDJSON mirror sorted by id, and PostgreSQL's snapshot checksum for the same records.
 * Computed once per snapshot.
 */
export function snapshotChecksum(index: RecordIndex): string {
  let checksum = checksums.get(index)
  if (checksum === undefined) {
    const hash = createHash('sha256')
    for (const id of idsInOrder(index)) hash.update(index.get(id)!.bytes).update('\n')
    checksum = hash.digest('hex')
    checksums.set(index, checksum)
  }
  return checksum
}

const modifiedAt = (index: RecordIndex, id: string): string | null =>
  index.get(id)!.record.modified_at ?? null

/** The records `after` adds, changes and removes from `before`, in id order. */
export function diffSnapshots(before: RecordIndex, after: RecordIndex): RecordChange[] {
  const [old, now] = [idsInOrder(before), idsInOrder(after)]
  const changes: RecordChange[] = []
  let [i, j] = [0, 0]
  while (i < old.length || j < now.length) {
    const c = i === old.length ? 1 : j === now.length ? -1 : compareIds(old[i]!, now[j]!)
    if (c < 0) {
      changes.push({ id: old[i]!, change: 'removed', modifiedAt: modifiedAt(before, old[i]!) })
      i++
    } else if (c > 0) {
      changes.push({ id: now[j]!, change: 'added', modifiedAt: modifiedAt(after, now[j]!) })
      j++
    } else {
      const id = now[j]!
      if (before.get(id)!.etag !== after.get(id)!.etag)
        changes.push({ id, change: 'changed', modifiedAt: modifiedAt(after, id) })
      i++
      j++
    }
  }
  return changes
}
