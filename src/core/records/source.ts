/**
 * Where records come from. The service sees only this interface: the file source is the embedded
 * default; other backends (PostgreSQL) implement the same contract.
 */
import type { Fact } from './record.js'

/** One consistent set of records, as published together. */
export interface RecordBatch {
  records: Fact[]
  /** When this set was published (RFC 3339), if the source knows it. */
  publishedAt?: string
  /** Which published snapshot this is, when the source keeps snapshots (PostgreSQL). */
  snapshot?: SnapshotInfo
}

/** A snapshot as the publishing pipeline numbers it. */
export type SnapshotInfo = {
  /** The snapshot's id (`reference-records snapshots` lists them). */
  id: number
  /** The publication (or rollback) that made it current. */
  publication: number
}

/**
 * The source cannot be read right now (connection lost, nothing published yet): nothing is wrong
 * with the records, so this is not a refused update; the source signals a change when it can be read.
 */
export class SourceUnavailableError extends Error {
  override readonly name = 'SourceUnavailableError'
}

export interface RecordSource {
  /** Where records come from, for logs and errors, e.g. "file:data/records.json". */
  readonly origin: string
  /** Loads and validates every record; throws `records: <origin>: …` naming each bad record. Never partial. */
  load(): Promise<RecordBatch>
  /**
   * Calls `onChange` when the source may have new records (the caller reloads and swaps).
   * Returns a function that stops watching.
   */
  watch?(onChange: () => void): () => void
  close(): Promise<void>
}
