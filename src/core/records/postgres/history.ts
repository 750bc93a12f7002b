/** Reading the publishing history: snapshots with their state, and a snapshot's records by hash (for diffs). */
import type { ClientBase } from 'pg'
import Cursor from 'pg-cursor'
import { appliedVersion } from './migrations.js'
import type { Queryable } from './snapshot-reader.js'
import { TABLES } from './tables.js'

export type SnapshotSummary = {
  id: number
  publishedAt: Date
  recordCount: number
  checksum: string
  note: string | null
  /** When its records were deleted by the retention; null while they are kept. */
  prunedAt: Date | null
  /** Whether it is the snapshot replicas serve now. */
  current: boolean
  /** When a publication or rollback last made it current. */
  lastCurrentAt: Date | null
}

type SummaryRow = {
  id: string
  published_at: Date
  record_count: number
  checksum: string
  note: string | null
  pruned_at: Date | null
  current: boolean
  last_current_at: Date | null
}

/** The most recent snapshots, newest first; empty when nothing was ever published (or no schema yet). */
export async function listSnapshots(db: ClientBase, limit: number): Promise<SnapshotSummary[]> {
  if ((await appliedVersion(db)) === 0) return []
  const { rows } = await db.query<SummaryRow>(
    `WITH current AS (SELECT snapshot_id FROM ${TABLES.publications} ORDER BY id DESC LIMIT 1)
     SELECT s.id, s.published_at, s.record_count, s.checksum, s.note, s.pruned_at,
            s.id = (SELECT snapshot_id FROM current) AS current,
            (SELECT max(p.published_at) FROM ${TABLES.publications} p WHERE p.snapshot_id = s.id) AS last_current_at
     FROM ${TABLES.snapshots} s ORDER BY s.id DESC LIMIT $1`,
    [limit],
  )
  return rows.map((r) => ({
    id: Number(r.id),
    publishedAt: r.published_at,
    recordCount: r.record_count,
    checksum: r.checksum,
    note: r.note,
    prunedAt: r.pruned_at,
    current: r.current === true,
    lastCurrentAt: r.last_current_at,
  }))
}

/** A publication event: a snapshot published, or made current again by a rollback, with its note. */
export type PublicationSummary = {
  id: number
  action: 'publish' | 'rollback'
  snapshotId: number
  publishedAt: Date
  note: string | null
  /** Whether it is the latest publication (its snapshot is the one replicas serve). */
  current: boolean
}

/** The most recent publications, newest first; empty when nothing was ever published (or no schema yet). */
export async function listPublications(db: ClientBase, limit: number): Promise<PublicationSummary[]> {
  if ((await appliedVersion(db)) === 0) return []
  const { rows } = await db.query<{
    id: string
    action: 'publish' | 'rollback'
    snapshot_id: string
    published_at: Date
    note: string | null
  }>(
    `SELECT id, action, snapshot_id, published_at, note FROM ${TABLES.publications} ORDER BY id DESC LIMIT $1`,
    [limit],
  )
  return rows.map((r, i) => ({
    id: Number(r.id),
    action: r.action,
    snapshotId: Number(r.snapshot_id),
    publishedAt: r.published_at,
    note: r.note,
    current: i === 0,
  }))
}

/** One snapshot's facts, or undefined when there is no such snapshot. */
export async function findSnapshot(
  db: Queryable,
  id: number,
): Promise<{ id: number; recordCount: number; prunedAt: Date | null } | undefined> {
  const { rows } = await db.query<{ id: string; record_count: number; pruned_at: Date | null }>(
    `SELECT id, record_count, pruned_at FROM ${TABLES.snapshots} WHERE id = $1`,
    [id],
  )
  const row = rows[0]
  return row === undefined
    ? undefined
    : { id: Number(row.id), recordCount: row.record_count, prunedAt: row.pruned_at }
}

/** id → record hash of every record of a snapshot, read in batches (no record bodies). */
export async function snapshotHashes(client: ClientBase, snapshotId: number): Promise<Map<string, string>> {
  const cursor = client.query(
    new Cursor<{ record_id: string; record_hash: string }>(
      `SELECT record_id, record_hash FROM ${TABLES.records} WHERE snapshot_id = $1`,
      [snapshotId],
    ),
  )
  const hashes = new Map<string, string>()
  try {
    for (let rows = await cursor.read(5_000); rows.length > 0; rows = await cursor.read(5_000)) {
      for (const row of rows) hashes.set(row.record_id, row.record_hash)
    }
  } finally {
    await cursor.close()
  }
  return hashes
}
