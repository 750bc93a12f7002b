/** What a publication changes: records added, changed and removed, by id, against the current snapshot. */

export type SnapshotDiff = {
  /** Ids in the new snapshot only, sorted. */
  added: string[]
  /** Ids in both whose record differs, sorted. */
  changed: string[]
  /** Ids in the current snapshot only, sorted. */
  removed: string[]
  unchanged: number
}

/** Compares two snapshots given as id → record hash. */
export function diffSnapshots(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): SnapshotDiff {
  const diff: SnapshotDiff = { added: [], changed: [], removed: [], unchanged: 0 }
  for (const [id, hash] of after) {
    const previous = before.get(id)
    if (previous === undefined) diff.added.push(id)
    else if (previous !== hash) diff.changed.push(id)
    else diff.unchanged++
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removed.push(id)
  for (const ids of [diff.added, diff.changed, diff.removed]) ids.sort()
  return diff
}

/** True when publishing would change nothing. */
export const isEmptyDiff = (diff: SnapshotDiff): boolean =>
  diff.added.length + diff.changed.length + diff.removed.length === 0
