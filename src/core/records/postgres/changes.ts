/**
 * The change feed's history read from the publishing tables, so that every replica serves the same
 * one: a publication's changes are the difference between its snapshot and the one current before
 * it (a rollback's too), computed by the database from the records' hashes. The history goes back
 * `keep` publications, or less: to the last publication whose snapshot, or whose predecessor's, was
 * pruned by the retention, which then is the base (its changes cannot be known any more).
 * Differences never change once published, so a replica computes each only once (`known`).
 */
import type { ClientBase } from 'pg'
import type { PublicationChanges, RecordChange } from '../../changes/change-log.js'
import { SNAPSHOT_LOCK_KEY, TABLES } from './tables.js'

type PublicationRow = {
  id: string
  published_at: Date
  snapshot_id: string
  pruned: boolean
  previous_snapshot: string | null
  previous_pruned: boolean | null
}

const PUBLICATIONS = `
  SELECT p.id, p.published_at, p.snapshot_id, s.pruned_at IS NOT NULL AS pruned,
         prev.snapshot_id AS previous_snapshot, ps.pruned_at IS NOT NULL AS previous_pruned
  FROM ${TABLES.publications} p
  JOIN ${TABLES.snapshots} s ON s.id = p.snapshot_id
  LEFT JOIN LATERAL (
    SELECT q.snapshot_id FROM ${TABLES.publications} q WHERE q.id < p.id ORDER BY q.id DESC LIMIT 1
  ) prev ON true
  LEFT JOIN ${TABLES.snapshots} ps ON ps.id = prev.snapshot_id
  WHERE p.id <= $1
  ORDER BY p.id DESC
  LIMIT $2`

// "C" order: the bytewise id order of the feed and of the checksum.
const DIFFERENCE = `
  SELECT coalesce(b.record_id, a.record_id) AS id,
         CASE WHEN a.record_id IS NULL THEN 'added' WHEN b.record_id IS NULL THEN 'removed' ELSE 'changed' END AS change,
         coalesce(b.record, a.record) ->> 'modified_at' AS modified_at
  FROM (SELECT record_id, record_hash, record FROM ${TABLES.records} WHERE snapshot_id = $1) a
  FULL JOIN (SELECT record_id, record_hash, record FROM ${TABLES.records} WHERE snapshot_id = $2) b
    ON a.record_id = b.record_id
  WHERE a.record_hash IS DISTINCT FROM b.record_hash
  ORDER BY 1`

/**
 * The history up to publication `upTo` (the one served), oldest first, at most `keep` publications.
 * `known` holds differences computed before, by publication number; new ones are added to it.
 */
export async function readChangeHistory(
  client: ClientBase,
  upTo: number,
  keep: number,
  known: Map<number, readonly RecordChange[]>,
): Promise<PublicationChanges[]> {
  const { rows } = await client.query<PublicationRow>(PUBLICATIONS, [upTo, keep])
  const history: PublicationChanges[] = []
  for (const row of rows) {
    const publication = Number(row.id)
    const entry = { publication: row.id, publishedAt: row.published_at.toISOString() }
    const computable = row.previous_snapshot !== null && !row.pruned && row.previous_pruned === false
    if (history.length === rows.length - 1 || !computable) {
      history.push({ ...entry, changes: [] }) // the base
      break
    }
    let changes = known.get(publication)
    if (changes === undefined) {
      const difference = await differenceOf(client, Number(row.previous_snapshot), Number(row.snapshot_id))
      if (difference === undefined) {
        history.push({ ...entry, changes: [] }) // pruned while we looked: the base
        break
      }
      changes = difference
      known.set(publication, changes)
    }
    history.push({ ...entry, changes })
  }
  return history.reverse()
}

/** The difference between two snapshots, or undefined when either was pruned meanwhile. */
async function differenceOf(
  client: ClientBase,
  before: number,
  after: number,
): Promise<RecordChange[] | undefined> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  try {
    // Held shared until the end: a prune skips both snapshots while they are compared.
    for (const id of [before, after])
      await client.query(`SELECT pg_advisory_xact_lock_shared(${SNAPSHOT_LOCK_KEY})`, [id])
    const { rows: kept } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${TABLES.snapshots} WHERE id = ANY($1) AND pruned_at IS NULL`,
      [[before, after]],
    )
    if (Number(kept[0]!.n) !== 2) return undefined
    const { rows } = await client.query<{
      id: string
      change: RecordChange['change']
      modified_at: string | null
    }>(DIFFERENCE, [before, after])
    return rows.map((r) => ({ id: r.id, change: r.change, modifiedAt: r.modified_at }))
  } finally {
    await client.query('COMMIT').catch(() => undefined)
  }
}
