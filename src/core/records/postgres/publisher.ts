/**
 * Publishing: a validated set of records becomes a new snapshot, made current by a publication, in
 * one transaction that ends by notifying the replicas (PostgreSQL delivers the NOTIFY at commit, so
 * no replica hears of a snapshot it cannot read yet). A rollback is a publication too: a new event
 * that makes an older snapshot current again; history is never rewritten. Publishers and rollbacks
 * of one schema are serialised by an advisory lock, and each checks that the snapshot it compared
 * against is still current, so the changes it printed are the changes it makes.
 */
import type { ClientBase } from 'pg'
import type { Fact } from '../record.js'
import { SnapshotChecksum, compareIds, recordHash, recordText } from './checksum.js'
import { diffSnapshots, type SnapshotDiff } from './diff.js'
import { findSnapshot, snapshotHashes } from './history.js'
import { appliedVersion } from './migrations.js'
import { currentPublication, toPublication, type Publication } from './snapshot-reader.js'
import { PUBLICATIONS_CHANNEL, PUBLISH_LOCK, SNAPSHOT_LOCK_KEY, TABLES } from './tables.js'

/** Snapshots whose records are kept by default: the current one and the nine before it. */
export const DEFAULT_KEEP_SNAPSHOTS = 10
const INSERT_BATCH_ROWS = 1_000

/** A refusal the operator can act on (stale plan, unknown or pruned snapshot…): printed as is, no stack. */
export class PublishingError extends Error {
  override readonly name = 'PublishingError'
}

/** Records ready to store: in id order, with their stored text and hash, and the snapshot's checksum. */
export type PreparedSnapshot = { rows: { id: string; hash: string; text: string }[]; checksum: string }

export function prepareSnapshot(records: readonly Fact[]): PreparedSnapshot {
  const rows = records.map((record) => {
    const text = recordText(record)
    return { id: record.id, hash: recordHash(text), text }
  })
  rows.sort((a, b) => compareIds(a.id, b.id))
  const checksum = new SnapshotChecksum()
  for (const row of rows) checksum.add(row.text)
  return { rows, checksum: checksum.digest() }
}

/** What a publication would do: the current publication it compares with (none yet) and the changes. */
export type Plan = { current: Publication | undefined; diff: SnapshotDiff }

/** Compares `next` (id → hash) with the current snapshot. Works on a database never migrated (all added). */
export async function planAgainstCurrent(
  client: ClientBase,
  next: ReadonlyMap<string, string>,
): Promise<Plan> {
  const current = (await appliedVersion(client)) === 0 ? undefined : await currentPublication(client)
  const before =
    current === undefined ? new Map<string, string>() : await snapshotHashes(client, current.snapshotId)
  return { current, diff: diffSnapshots(before, next) }
}

export const hashesOf = (snapshot: PreparedSnapshot): Map<string, string> =>
  new Map(snapshot.rows.map((r) => [r.id, r.hash]))

export type PublishOptions = {
  note?: string
  keep?: number
  /** Told how many records are stored so far, after each batch (a progress bar). */
  onStored?: (stored: number, total: number) => void
}
export type Published = { publication: Publication; pruned: number[] }

/** Stores `snapshot` and makes it current, if `plan.current` is still current; prunes past the retention. */
export async function publishSnapshot(
  client: ClientBase,
  snapshot: PreparedSnapshot,
  plan: Plan,
  options: PublishOptions = {},
): Promise<Published> {
  return inTransaction(client, async () => {
    await expectCurrent(client, plan.current)
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO ${TABLES.snapshots} (checksum, record_count, note) VALUES ($1, $2, $3) RETURNING id`,
      [snapshot.checksum, snapshot.rows.length, options.note ?? null],
    )
    const snapshotId = Number(rows[0]!.id)
    for (let start = 0; start < snapshot.rows.length; start += INSERT_BATCH_ROWS) {
      const batch = snapshot.rows.slice(start, start + INSERT_BATCH_ROWS)
      await client.query(
        `INSERT INTO ${TABLES.records} (snapshot_id, record_id, record_hash, record)
         SELECT $1, id, hash, text::json FROM unnest($2::text[], $3::text[], $4::text[]) AS r(id, hash, text)`,
        [snapshotId, batch.map((r) => r.id), batch.map((r) => r.hash), batch.map((r) => r.text)],
      )
      options.onStored?.(start + batch.length, snapshot.rows.length)
    }
    const publication = await recordPublication(client, snapshotId, 'publish', options.note)
    await client.query(`UPDATE ${TABLES.snapshots} SET published_at = $2 WHERE id = $1`, [
      snapshotId,
      publication.publishedAt,
    ])
    const pruned = await prune(client, snapshotId, options.keep ?? DEFAULT_KEEP_SNAPSHOTS)
    return { publication, pruned }
  })
}

/** Makes snapshot `snapshotId` current again, if `plan.current` is still current. */
export async function rollbackTo(
  client: ClientBase,
  snapshotId: number,
  plan: Plan,
  options: { note?: string } = {},
): Promise<Publication> {
  return inTransaction(client, async () => {
    await expectCurrent(client, plan.current)
    await checkRollbackTarget(client, snapshotId, plan.current)
    return recordPublication(client, snapshotId, 'rollback', options.note)
  })
}

/** Refuses a target that does not exist, was pruned, or is already current. */
export async function checkRollbackTarget(
  client: ClientBase,
  snapshotId: number,
  current: Publication | undefined,
): Promise<void> {
  const target = (await appliedVersion(client)) === 0 ? undefined : await findSnapshot(client, snapshotId)
  if (target === undefined)
    throw new PublishingError(`no snapshot ${snapshotId}; "reference-records snapshots" lists them`)
  if (target.prunedAt !== null) {
    throw new PublishingError(
      `snapshot ${snapshotId} was pruned on ${target.prunedAt.toISOString()} (retention); publish its records again instead`,
    )
  }
  if (current?.snapshotId === snapshotId)
    throw new PublishingError(`snapshot ${snapshotId} is already current`)
}

async function expectCurrent(client: ClientBase, expected: Publication | undefined): Promise<void> {
  await client.query(PUBLISH_LOCK)
  const now = await currentPublication(client)
  if (now?.publicationId !== expected?.publicationId) {
    throw new PublishingError(
      `snapshot ${now?.snapshotId} became current (publication ${now?.publicationId}) after the changes above were computed; nothing was written: run the command again`,
    )
  }
}

/** Inserts the event and queues the notification (sent at commit). Its time is the commit's, not the transaction start's. */
async function recordPublication(
  client: ClientBase,
  snapshotId: number,
  action: 'publish' | 'rollback',
  note: string | undefined,
): Promise<Publication> {
  const { rows } = await client.query(
    `WITH p AS (
       INSERT INTO ${TABLES.publications} (snapshot_id, action, note, published_at) VALUES ($1, $2, $3, clock_timestamp())
       RETURNING id, snapshot_id, action, published_at, note
     )
     SELECT p.id AS publication_id, p.action, p.published_at, s.id AS snapshot_id, s.checksum, s.record_count, p.note
     FROM p JOIN ${TABLES.snapshots} s ON s.id = p.snapshot_id`,
    [snapshotId, action, note ?? null],
  )
  const publication = toPublication(rows[0])
  const payload = JSON.stringify({ publication: publication.publicationId, snapshot: snapshotId })
  await client.query('SELECT pg_notify($1, $2)', [PUBLICATIONS_CHANNEL, payload])
  return publication
}

/**
 * Deletes the records of snapshots past the newest `keep` (the current one always stays), except
 * any a replica is reading (it holds the snapshot's lock shared). The snapshot's row stays, marked
 * pruned, so the history remains whole.
 */
async function prune(client: ClientBase, currentId: number, keep: number): Promise<number[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM ${TABLES.snapshots} WHERE pruned_at IS NULL AND id <> $1 ORDER BY id DESC OFFSET $2`,
    [currentId, Math.max(0, keep - 1)],
  )
  const pruned: number[] = []
  for (const { id } of rows) {
    const { rows: lock } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK_KEY}) AS locked`,
      [id],
    )
    if (!lock[0]!.locked) continue
    await client.query(`DELETE FROM ${TABLES.records} WHERE snapshot_id = $1`, [id])
    await client.query(`UPDATE ${TABLES.snapshots} SET pruned_at = clock_timestamp() WHERE id = $1`, [id])
    pruned.push(Number(id))
  }
  return pruned
}

async function inTransaction<T>(client: ClientBase, body: () => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await body()
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  }
}
