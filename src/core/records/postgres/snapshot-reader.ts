/**
 * Reading publications and snapshots. A replica reads the current snapshot in one read-only,
 * repeatable-read transaction (the publication and every row come from one consistent view of the
 * database, even if a publication or a prune commits meanwhile), holding the snapshot's advisory
 * lock shared (so a prune skips it), through a cursor that fetches a bounded batch of rows at a time
 * instead of one giant result set.
 */
import type { ClientBase } from 'pg'
import Cursor from 'pg-cursor'
import type { RecordConsumer, RecordText } from '../source.js'
import { SnapshotChecksum } from './checksum.js'
import { SNAPSHOT_LOCK_KEY, TABLES } from './tables.js'

/** Anything that runs a query: a pool or a client. */
export type Queryable = Pick<ClientBase, 'query'>

/** The publication that made a snapshot current, with the snapshot's own facts. */
export type Publication = {
  publicationId: number
  action: 'publish' | 'rollback'
  /** When this publication made the snapshot current. */
  publishedAt: Date
  snapshotId: number
  checksum: string
  recordCount: number
  note: string | null
}

type PublicationRow = {
  publication_id: string
  action: 'publish' | 'rollback'
  published_at: Date
  snapshot_id: string
  checksum: string
  record_count: number
  note: string | null
}

const CURRENT_PUBLICATION = `
  SELECT p.id AS publication_id, p.action, p.published_at, s.id AS snapshot_id, s.checksum, s.record_count, s.note
  FROM ${TABLES.publications} p JOIN ${TABLES.snapshots} s ON s.id = p.snapshot_id
  ORDER BY p.id DESC LIMIT 1`

/** The current publication, or undefined when nothing was ever published. */
export async function currentPublication(db: Queryable): Promise<Publication | undefined> {
  const row = (await db.query<PublicationRow>(CURRENT_PUBLICATION)).rows[0]
  return row === undefined ? undefined : toPublication(row)
}

/** Only the current publication's id: what replicas compare, cheaply, to know they are behind. */
export async function currentPublicationId(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ id: string | null }>(`SELECT max(id) AS id FROM ${TABLES.publications}`)
  return rows[0]?.id == null ? undefined : Number(rows[0].id)
}

export const toPublication = (row: PublicationRow): Publication => ({
  publicationId: Number(row.publication_id),
  action: row.action,
  publishedAt: row.published_at,
  snapshotId: Number(row.snapshot_id),
  checksum: row.checksum,
  recordCount: row.record_count,
  note: row.note,
})

export type ReadSnapshot = {
  publication: Publication
  /** Rows read. */
  count: number
  /** Checksum of the texts actually read: equal to the publication's when nothing was lost or altered. */
  checksum: string
}

export type ReadOptions = {
  /** Rows fetched per round trip. */
  batchRows: number
  /** Bounds each round trip, so a connection that died silently fails the read instead of hanging it. */
  withDeadline: <T>(step: Promise<T>) => Promise<T>
  /** Told which publication is being read, as soon as it is known. */
  onPublication?: (publication: Publication) => void
}

/**
 * Reads the current snapshot, giving each row, parsed but not yet validated, to `consume` in id
 * order; undefined when nothing was ever published. A row that is not JSON is given as its text
 * (validation then refuses it, naming the row).
 */
export async function readCurrentSnapshot(
  client: ClientBase,
  options: ReadOptions,
  consume: RecordConsumer,
): Promise<ReadSnapshot | undefined> {
  await options.withDeadline(client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'))
  try {
    const publication = await options.withDeadline(currentPublication(client))
    if (publication === undefined) return undefined
    options.onPublication?.(publication)
    await options.withDeadline(
      client.query(`SELECT pg_advisory_xact_lock_shared(${SNAPSHOT_LOCK_KEY})`, [publication.snapshotId]),
    )
    const { count, checksum } = await readRows(client, publication.snapshotId, options, consume)
    return { publication, count, checksum }
  } finally {
    await options.withDeadline(client.query('COMMIT')).catch(() => undefined)
  }
}

async function readRows(
  client: ClientBase,
  snapshotId: number,
  options: ReadOptions,
  consume: RecordConsumer,
): Promise<{ count: number; checksum: string }> {
  // record::text is the text as published (json keeps it verbatim); parsing is ours, so a bad row is named, not thrown by the driver.
  const cursor = client.query(
    new Cursor<{ record_id: string; text: string }>(
      `SELECT record_id, record::text AS text FROM ${TABLES.records} WHERE snapshot_id = $1 ORDER BY record_id`,
      [snapshotId],
    ),
  )
  let count = 0
  const checksum = new SnapshotChecksum()
  // The text as published is usually the record's canonical JSON: the build keeps it (json-text.ts).
  const text: RecordText = { json: '', bytes: undefined, start: 0, end: 0 }
  try {
    for (;;) {
      const rows = await options.withDeadline(cursor.read(options.batchRows))
      if (rows.length === 0) break
      for (const row of rows) {
        checksum.add(row.text)
        count++
        text.json = row.text
        consume(parseRow(row.text), `row ${count}`, text)
      }
    }
  } finally {
    await cursor.close().catch(() => undefined)
  }
  return { count, checksum: checksum.digest() }
}

/** A row's record, or its raw text when it is not JSON (validation then refuses it, naming the row). */
function parseRow(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
