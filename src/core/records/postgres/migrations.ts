/**
 * The database schema of the publishing pipeline, as versioned migrations shipped in the package.
 * `migrate` applies the missing ones in order, in one transaction, under an advisory lock, so two
 * publishers (or a publisher and `db migrate`) starting at once cannot both apply one, and a failed
 * migration leaves the schema as it was (PostgreSQL's DDL is transactional).
 *
 * Tables live in the connection's current schema (the first of its search_path), with a
 * `reference_records_` prefix so they can share a schema with others. Migrations only ever add
 * (tables, columns, indexes): a replica one version behind keeps reading.
 */
import type { ClientBase } from 'pg'
import { TABLES } from './tables.js'

export type Migration = { readonly version: number; readonly name: string; readonly sql: string }

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'snapshots, their records, publications',
    sql: `
      CREATE TABLE ${TABLES.snapshots} (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        published_at timestamptz NOT NULL DEFAULT now(),
        checksum text NOT NULL,
        record_count integer NOT NULL CHECK (record_count >= 0),
        note text,
        pruned_at timestamptz
      );
      -- One row per record; "record" is json (not jsonb) so the text published is the text read back,
      -- and ids sort bytewise ("C") so the checksum (over records in id order) reads in index order.
      CREATE TABLE ${TABLES.records} (
        snapshot_id bigint NOT NULL REFERENCES ${TABLES.snapshots} (id) ON DELETE CASCADE,
        record_id text COLLATE "C" NOT NULL,
        record_hash text NOT NULL,
        record json NOT NULL,
        PRIMARY KEY (snapshot_id, record_id)
      );
      -- The history: every event that made a snapshot current (a publication or a rollback).
      CREATE TABLE ${TABLES.publications} (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        snapshot_id bigint NOT NULL REFERENCES ${TABLES.snapshots} (id),
        action text NOT NULL CHECK (action IN ('publish', 'rollback')),
        published_at timestamptz NOT NULL DEFAULT now(),
        note text
      );
    `,
  },
]

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

export type MigrationReport = { from: number; to: number; applied: Migration[] }

/** Applies the missing migrations, idempotently; returns what it did. */
export async function migrate(
  client: ClientBase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  await client.query('BEGIN')
  try {
    // Serialises concurrent migrators of this schema; released at COMMIT/ROLLBACK.
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtext('reference_records.migrate.' || current_schema()))`,
    )
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${TABLES.migrations} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`)
    const from = await appliedVersion(client)
    const missing = migrations.filter((m) => m.version > from)
    for (const migration of missing) {
      await client.query(migration.sql)
      await client.query(`INSERT INTO ${TABLES.migrations} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ])
    }
    await client.query('COMMIT')
    return { from, to: missing.at(-1)?.version ?? from, applied: missing }
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  }
}

/** The schema version of the database: 0 when nothing was ever migrated. */
export async function appliedVersion(client: ClientBase): Promise<number> {
  const exists = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    TABLES.migrations,
  ])
  if (!exists.rows[0]!.present) return 0
  const { rows } = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${TABLES.migrations}`,
  )
  return rows[0]!.version ?? 0
}
