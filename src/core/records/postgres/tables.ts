/** Names the publishing pipeline shares with the database: tables, the notification channel, lock keys. */

export const TABLES = {
  migrations: 'reference_records_schema_migrations',
  snapshots: 'reference_records_snapshots',
  records: 'reference_records_snapshot_records',
  publications: 'reference_records_publications',
} as const

/** `NOTIFY`ed after every publication and rollback; its payload is `{"publication":…,"snapshot":…}`. */
export const PUBLICATIONS_CHANNEL = 'reference_records_publications'

/**
 * SQL for the advisory lock on one snapshot ($1): replicas hold it shared while they read the
 * snapshot, and pruning only deletes a snapshot whose lock it can take exclusively. The key includes
 * the schema, so two deployments in one database never block each other.
 */
export const SNAPSHOT_LOCK_KEY = `hashtext('reference_records.snapshot.' || current_schema()), $1::integer`

/** Serialises publishers and rollbacks of one schema (taken inside their transaction). */
export const PUBLISH_LOCK = `SELECT pg_advisory_xact_lock(hashtext('reference_records.publish.' || current_schema()))`

/** SQLSTATE of "relation does not exist": the schema was never migrated. */
const UNDEFINED_TABLE = '42P01'

/** Whether a pg error says the tables do not exist yet. */
export const isUndefinedTable = (err: unknown): boolean =>
  (err as { code?: unknown })?.code === UNDEFINED_TABLE
