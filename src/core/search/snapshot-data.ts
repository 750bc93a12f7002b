/**
 * A built snapshot as plain data: typed arrays and a few strings, no object per record. It is what a
 * build produces (in a worker thread: its buffers are transferred, not copied) and what RecordIndex
 * serves from. Documents are numbered in the order the source gave them; `order` gives the listing.
 */
import type { SnapshotInfo } from '../records/source.js'
import { preparedTransferList, type PreparedAnswersData } from './prepared-answers.js'
import { SNAPSHOT_COLUMNS, type SnapshotColumns } from './snapshot-columns.js'
import { partsArrays, type DenseParts } from './dense-postings.js'

export { ETAG_LENGTH } from './snapshot-columns.js'

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
  /**
   * The bits of the most frequent searched words (dense-postings.ts), made after the build in its
   * thread (text-index.ts, `prebuiltDense`): `words[i]` are term `terms[i]`'s.
   */
  dense?: PrebuiltDense
}

export type PrebuiltDense = { terms: Uint32Array; words: DenseParts[] }

/** The lexicon's tables: typed arrays and one list of strings, so a build thread can hand them over. */
export type LexiconData = {
  /** The distinct form keys of the indexed words, in code-unit order (searched by bisection). */
  keys: string[]
  /** Key k's words are `termsByKey[keyStart[k] .. keyStart[k + 1])`, by term number. */
  keyStart: Uint32Array
  termsByKey: Uint32Array
  /** The correction candidates by length then term number; length n's are `[lengthStart[n], lengthStart[n + 1])`. */
  candidates: Uint32Array
  lengthStart: Uint32Array
}

/** The records' columns (snapshot-columns.ts declares them), and what a snapshot holds besides. */
export type SnapshotData = SnapshotColumns & {
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
  countsByKind: number[]
  /** Content hash of the snapshot: the records' ETags in listing order. */
  version: string
  publishedAt: string
  snapshot?: SnapshotInfo
  text: TextIndexData
  /** Answers to broad one-word queries, prepared after the build (prepared-answers.ts). */
  prepared?: PreparedAnswersData
  /** The query side's tables of the indexed words (lexicon.ts), made after the build under the bundled forms. */
  lexicon?: LexiconData
  /** The listing order of the records whose regions hold France, made after the build (the region filter). */
  franceOrder?: Uint32Array
}

/** The buffers of a snapshot, to transfer it between threads without copying (shared memory is shared, not transferred). */
export function transferList(data: SnapshotData): ArrayBuffer[] {
  const { text } = data
  const arrays = [
    ...data.arenas,
    ...SNAPSHOT_COLUMNS.map((name) => data[name]),
    text.frequency,
    text.termStart,
    text.postings,
    text.titleLength,
    text.bodyLength,
  ]
  return ownBuffers([
    ...arrays.map((a) => a.buffer),
    ...(data.prepared ? preparedTransferList(data.prepared) : []),
    ...(data.lexicon
      ? [
          data.lexicon.keyStart,
          data.lexicon.termsByKey,
          data.lexicon.candidates,
          data.lexicon.lengthStart,
        ].map((a) => a.buffer)
      : []),
    ...(data.franceOrder ? [data.franceOrder.buffer] : []),
    ...(text.dense ? [text.dense.terms, ...text.dense.words.flatMap(partsArrays)].map((a) => a.buffer) : []),
  ])
}

/** The distinct buffers among `buffers` that can be transferred (not shared memory). */
export function ownBuffers(buffers: readonly ArrayBufferLike[]): ArrayBuffer[] {
  return [...new Set(buffers.filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer)))]
}
