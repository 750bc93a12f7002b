/** How the publishing commands describe snapshots and changes, for people (stdout). */
import type { SnapshotDiff } from '../../core/records/postgres/diff.js'
import type { PublicationSummary, SnapshotSummary } from '../../core/records/postgres/history.js'
import type { Publication } from '../../core/records/postgres/snapshot-reader.js'

/** Ids shown per kind of change; the rest is counted. */
const SHOWN_IDS = 5

const shortChecksum = (checksum: string) => checksum.slice(0, 12)

/** "snapshot 3 (published 2026-11-20T09:00:00.000Z, 263 records)", or that nothing is published. */
export function describeCurrent(current: Publication | undefined): string {
  if (current === undefined) return 'Current snapshot: none (nothing published yet).'
  const how = current.action === 'rollback' ? 'made current again by a rollback' : 'published'
  return `Current snapshot: ${current.snapshotId} (${how} ${current.publishedAt.toISOString()}, ${current.recordCount} records).`
}

function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, SHOWN_IDS).join(', ')
  return ids.length > SHOWN_IDS ? `${shown}, … and ${ids.length - SHOWN_IDS} more` : shown
}

/** The changes, one line per kind, with the first ids of each. */
export function formatDiff(diff: SnapshotDiff): string {
  const line = (sign: string, count: number, what: string, ids: readonly string[]) =>
    `  ${sign} ${String(count).padStart(6)} ${what.padEnd(9)} ${idList(ids)}`.trimEnd()
  return [
    'Changes:',
    line('+', diff.added.length, 'added', diff.added),
    line('~', diff.changed.length, 'changed', diff.changed),
    line('-', diff.removed.length, 'removed', diff.removed),
    line('=', diff.unchanged, 'unchanged', []),
  ].join('\n')
}

/** current (served), pruned (its records deleted by the retention) or kept (can be rolled back to). */
export const snapshotState = (s: SnapshotSummary): 'current' | 'pruned' | 'kept' =>
  s.current ? 'current' : s.prunedAt !== null ? 'pruned' : 'kept'

/** A table of snapshots, newest first. */
export function formatSnapshots(snapshots: readonly SnapshotSummary[]): string {
  if (snapshots.length === 0) return 'No snapshot published yet.'
  const header = ['ID', 'PUBLISHED', 'RECORDS', 'CHECKSUM', 'STATE', 'NOTE']
  const rows = snapshots.map((s) => [
    String(s.id),
    s.publishedAt.toISOString(),
    String(s.recordCount),
    shortChecksum(s.checksum),
    snapshotState(s),
    (s.note ?? '').replace(/\p{Cc}/gu, ' '),
  ])
  return table(header, rows, [0, 2])
}

/** A table of publications (publishes and rollbacks, with their notes), newest first. */
export function formatPublications(publications: readonly PublicationSummary[]): string {
  if (publications.length === 0) return 'Nothing published yet.'
  const header = ['ID', 'PUBLISHED', 'ACTION', 'SNAPSHOT', 'STATE', 'NOTE']
  const rows = publications.map((p) => [
    String(p.id),
    p.publishedAt.toISOString(),
    p.action,
    String(p.snapshotId),
    p.current ? 'current' : '',
    (p.note ?? '').replace(/\p{Cc}/gu, ' '),
  ])
  return table(header, rows, [0, 3])
}

/** Columns padded to their widest cell, numbers (`rightAligned`) to the right, the last one unpadded. */
function table(header: string[], rows: string[][], rightAligned: readonly number[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const render = (cells: string[]) =>
    cells
      .map((c, i) =>
        rightAligned.includes(i) ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd()
  return [render(header), ...rows.map(render)].join('\n')
}

/** What a publication or rollback did. */
export function describePublication(publication: Publication, pruned: readonly number[] = []): string {
  const what =
    publication.action === 'publish'
      ? `Published snapshot ${publication.snapshotId}`
      : `Snapshot ${publication.snapshotId} is current again`
  const lines: string[] = []
  if (pruned.length > 0)
    lines.push(
      `Pruned the records of snapshot${pruned.length > 1 ? 's' : ''} ${pruned.join(', ')} (retention).`,
    )
  // The summary comes last: a command ends with one line that says what it did.
  lines.push(
    `${what} (${publication.recordCount} records, checksum ${shortChecksum(publication.checksum)}) at ` +
      `${publication.publishedAt.toISOString()}, publication ${publication.publicationId}; replicas notified.`,
  )
  return lines.join('\n')
}
