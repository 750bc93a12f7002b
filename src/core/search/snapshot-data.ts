/**
 * A built snapshot as plain data: typed arrays and a few strings, no object per record. It is what a
 * build produces (in a worker thread: its buffers are transferred, not copied) and what RecordIndex
 * serves from. Documents are numbered in the order the source gave them; `order` gives the listing.
 */
import type { SnapshotInfo } from '../records/source.js'
import { preparedTransferList, type PreparedAnswersData } from './prepared-answers.js'

/** Length of a record's ETag without its quotes: 27 base64url characters of a SHA-256. */
export const ETAG_LENGTH = 27

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
   * Every record's JSON, as served, in UTF-8, one after the other: in one arena, or one per thread
   * that built a part (kept apart, never copied together). Arena k holds bytes [arenaStart[k],
   * arenaStart[k + 1]) of the records laid end to end.
   */
  arenas: Uint8Array[]
  arenaStart: number[]
  /** Record n's bytes are [offsets[n], offsets[n + 1]) of the records laid end to end. */
  offsets: Float64Array
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

/** The buffers of a snapshot, to transfer it between threads without copying. */
export function transferList(data: SnapshotData): ArrayBuffer[] {
  const { text } = data
  const arrays = [
    ...data.arenas, data.offsets, data.etags, data.kinds, data.france, data.rankClass, data.order,
    data.idPrefix, data.idHigh, data.idLow, data.byId, data.tieRank, data.urlHigh, data.urlLow, data.byUrl,
    text.frequency, text.termStart, text.postings, text.titleLength, text.bodyLength,
  ]
  return [...new Set([...arrays.map((a) => a.buffer as ArrayBuffer), ...(data.prepared ? preparedTransferList(data.prepared) : [])])]
}
