/**
 * The guard `publish` and `rollback` share: a publication that would remove more than a share of
 * the current records needs --allow-removals. A records file cut at a line boundary (a copy
 * interrupted, a disk full) is valid NDJSON with fewer records, and a rollback to a small, old
 * snapshot removes just as much: without this bound either would publish, and every replica would
 * drop the missing records.
 */
import type { SnapshotDiff } from '../../core/records/postgres/diff.js'

/** The share of the current records a publication may remove without --allow-removals. */
export const MAX_REMOVED_SHARE = 0.1

/**
 * Why `diff` needs --allow-removals; undefined when it removes no more than the share allowed.
 * `doing` names the command's action ("publishing", "rolling back to snapshot 3"), `question` what
 * the operator should check; the refusal ends by saying that nothing was published.
 */
export function removalRefusal(diff: SnapshotDiff, doing: string, question: string): string | undefined {
  const current = diff.removed.length + diff.changed.length + diff.unchanged
  const removed = diff.removed.length
  if (removed === 0 || removed <= MAX_REMOVED_SHARE * current) return undefined
  return (
    `${doing} would remove ${removed} of the ${current} current records (${Math.round((100 * removed) / current)} %, ` +
    `more than ${Math.round(MAX_REMOVED_SHARE * 100)} %); ${question} Give --allow-removals if these removals are meant. Nothing was published.`
  )
}
