/**
 * A built snapshot as plain data: typed arrays and a few strings, no object per record. It is what a
 * build produces (in a worker thread: its buffers are transferred, not copied) and what RecordIndex
 * serves from. Documents are numbered in the order the source gave them; `order` gives the listing.
 */
import type { SnapshotInfo } from '../records/source.js'
import { pageBacked } from './growable.js'
import { preparedTransferList, type PreparedAnswersData } from './prepared-answers.js'

/** Length of a record's ETag without its quotes: 27 base64url characters of a SHA-256. */
export const ETAG_LENGTH = 27
/**
 * A build thread starts a new arena once its current one holds this much: a reload that rewrites the
 * records of a mostly emptied arena (previous-records.ts) then copies at most this much per arena.
 */
export const ARENA_BYTES = 64 * 1024 * 1024


export type TextIndexData = {
  /** Indexed words, by term number. */
  terms: string[]
  /** Documents holding each term, by term number. */
  frequency: Uint32Array
  /** Term t's postings are bytes [termStart[t], termStart[t + 1]) of `postings` (postings-codec.ts). */
  termStart: Float64Array
  postings: Uint8Array
  /** Words per document, per field; and their averages. */
  titleLength: Float32Array
  bodyLength: Float32Array
  averageTitle: number
  averageBody: number
}

export type SnapshotData = {
  count: number
  /**
   * The records' JSON this build wrote, as served, in UTF-8, one after the other, in arenas of about
   * ARENA_BYTES (each build thread fills its own; they are never copied together).
   */
  arenas: Uint8Array[]
  /**
   * How many arena numbers name arenas of the previous snapshot (a reload keeps the records that did
   * not change where they are: previous-records.ts): arena numbers below `inherited` are the
   * previous snapshot's, by its numbering; number `inherited + k` is `arenas[k]`.
   */
  inherited: number
  /**
   * Record n's bytes: `recordLength[n]` bytes from `recordStart[n]` of arena `recordArena[n]`. Shared
   * memory (like the id and ETag arrays), so that a later reload's build threads read them in place.
   */
  recordArena: Uint16Array
  recordStart: Uint32Array
  recordLength: Uint32Array
  /** Record n's ETag (without quotes) at [n * ETAG_LENGTH, (n + 1) * ETAG_LENGTH), ASCII. */
  etags: Uint8Array
  /** Per record: its kind's position in KINDS; 1 when its regions hold France; its ranking class. */
  kinds: Uint8Array
  france: Uint8Array
  rankClass: Uint8Array
  /** Documents in listing order: kind (spec order), title (French collation), id. */
  order: Uint32Array
  /** Per record, its id as (prefix code, high and low 32 bits of the 16 hex digits). */
  idPrefix: Uint8Array
  idHigh: Uint32Array
  idLow: Uint32Array
  /** Documents in id order (ids' byte order, the order of equal-scoring search results). */
  byId: Uint32Array
  /** Per record, its position in id order. */
  tieRank: Uint32Array
  /** Per record, a 64-bit hash of its url (two halves), and the documents in that hash's order. */
  urlHigh: Uint32Array
  urlLow: Uint32Array
  byUrl: Uint32Array
  countsByKind: number[]
  /** Content hash of the snapshot: the records' ETags in listing order. */
  version: string
  publishedAt: string
  snapshot?: SnapshotInfo
  text: TextIndexData
  /** Answers to broad one-word queries, prepared after the build (prepared-answers.ts). */
  prepared?: PreparedAnswersData
}

/** The buffers of a snapshot, to transfer it between threads without copying (shared memory is shared, not transferred). */
export function transferList(data: SnapshotData): ArrayBuffer[] {
  const { text } = data
  const arrays = [
    ...data.arenas, data.recordArena, data.recordStart, data.recordLength, data.etags, data.kinds, data.france, data.rankClass, data.order,
    data.idPrefix, data.idHigh, data.idLow, data.byId, data.tieRank, data.urlHigh, data.urlLow, data.byUrl,
    text.frequency, text.termStart, text.postings, text.titleLength, text.bodyLength,
  ]
  return ownBuffers([...arrays.map((a) => a.buffer), ...(data.prepared ? preparedTransferList(data.prepared) : [])])
}

/** The distinct buffers among `buffers` that can be transferred (not shared memory). */
export function ownBuffers(buffers: readonly ArrayBufferLike[]): ArrayBuffer[] {
  return [...new Set(buffers.filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer)))]
}

type SharableArray = Uint8Array | Uint16Array | Uint32Array
/** A copy of `values` in shared memory (page-backed): readable by other threads in place. */
export function inSharedMemory<T extends SharableArray>(values: T): T {
  const copy = pageBacked(values.constructor as Parameters<typeof pageBacked<T>>[0], values.length, true)
  copy.set(values as never)
  return copy
}
