/**
 * Where records come from. The service sees only this interface: the file source is the embedded
 * default; other backends (PostgreSQL) implement the same contract.
 */
import type { ByteRange } from './ndjson-parts.js'
import type { Fact } from './record.js'
import { ValidRecords } from './validate.js'

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

/**
 * The JSON text a raw record was parsed from, when the source has it (an NDJSON line, a row's text):
 * a build keeps it as the record's bytes when it already is the record's canonical JSON
 * (json-text.ts). Valid only during the consumer's call: a source may reuse it for the next record.
 */
export type RecordText = {
  json: string
  /** `json`'s bytes as read, `bytes[start, end)`, when the source read bytes (undefined: encode `json`). */
  bytes: Uint8Array | undefined
  start: number
  end: number
}

/** Takes one raw record (not yet validated), where it came from ("line 7"), and the text it was parsed from if known. */
export type RecordConsumer = (value: unknown, where: string, text?: RecordText) => void

/** What a read learnt besides the records. */
export type ReadInfo = {
  /** When this set was published (RFC 3339), if the source knows it. */
  publishedAt?: string
  /** Which published snapshot it is (PostgreSQL). */
  snapshot?: SnapshotInfo
  /** The file's version (mtime and size) when the read began. */
  version?: string
  /** The publication read (PostgreSQL), known as soon as the read began. */
  publication?: number
  /** What was read, when more precise than the source's origin ("postgres://… snapshot 12"): messages name it. */
  origin?: string
}

/** What a worker thread needs to open a source of its own and read the same records. */
export type SourceSpec =
  | { type: 'file'; path: string; range?: ByteRange }
  | { type: 'postgres'; url: string; applicationName: string; batchRows: number; readStepTimeoutMs: number }

export interface RecordSource {
  /** Where records come from, for logs and errors, e.g. "file:data/records.json". */
  readonly origin: string
  /**
   * Streams every record, raw and in order, to `consume`; throws `records: <origin>: …` when the
   * source cannot be read whole (SourceUnavailableError when it is only for now). Validation is the
   * consumer's: all-or-nothing is decided once every record was seen.
   */
  read(consume: RecordConsumer): Promise<ReadInfo>
  /** Reads and validates every record into memory (small sets: publishing, tools, tests). Never partial. */
  load(): Promise<RecordBatch>
  /** This source as a worker thread can open it. */
  spec(): SourceSpec
  /**
   * Up to `parts` descriptions of sources that together read the same records, in order, each on
   * its own (a build on several threads), none smaller than `minPartBytes` where the source counts
   * bytes; undefined when this source cannot be read in parts.
   */
  split?(parts: number, minPartBytes?: number): Promise<SourceSpec[] | undefined>
  /**
   * How large a read would be, cheaply, before it (a file's bytes, a publication's record count):
   * small sources are built on the calling thread (buildsInProcess). Undefined when unknown.
   */
  sizeHint?(): Promise<{ records?: number; bytes?: number } | undefined>
  /** Told what a read made by a worker saw, as if this source had made it. */
  noteRead?(info: ReadInfo): void
  /** What the last read saw so far, even a failed one (sent back by a worker with its failure). */
  partialRead?(): ReadInfo
  /**
   * Whether the source has records that were neither loaded nor refused yet, as far as it knows;
   * asked before a load that a change signalled during another load queued. A source whose
   * signals can repeat for one change (PostgreSQL's checks, during a load longer than their
   * period) says false once that change is loaded, and a repeated signal costs no second load.
   * A source without it is always loaded again.
   */
  isBehind?(): boolean
  /**
   * Calls `onChange` when the source may have new records (the caller reloads and swaps).
   * Returns a function that stops watching.
   */
  watch?(onChange: () => void): () => void
  close(): Promise<void>
}

/** Reads and validates every record of `source` into memory: RecordSource.load for sets that fit. */
export async function collectRecords(source: RecordSource): Promise<RecordBatch> {
  const valid = new ValidRecords(source.origin)
  const info = await source.read((value, where) => valid.add(value, where))
  return { records: valid.finish(info.origin), publishedAt: info.publishedAt, snapshot: info.snapshot }
}
