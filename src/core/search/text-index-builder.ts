/**
 * The inverted index, built a document at a time. Each document's postings (term, count in the
 * title, count in the body) are appended to a log in document order; every few million postings
 * the log is sorted by term and encoded (postings-codec.ts) into a chunk, and `part()` lays the
 * chunks end to end, each term's postings in one run of one shared byte array. Appending to
 * per-term arrays instead (the earlier design) scattered every posting across thousands of small
 * arrays, and that, not the words, was half of the indexing time.
 *
 * Parts built on other threads from later documents are merged term by term (`mergeTextParts`).
 */
import { Growable, pageBacked } from './growable.js'
import { postingSize, readVarint, varintSize, writePosting, writeVarint } from './postings-codec.js'
import type { TextIndexData } from './snapshot-data.js'
import { TermReader } from './term-reader.js'

/** An index over some documents, with word totals instead of averages, so that parts can be merged. */
export type TextIndexPart = Omit<TextIndexData, 'averageTitle' | 'averageBody'> & {
  titleWords: number
  bodyWords: number
  /** Per term, the last document holding it (for the merge: the next part's first gap counts from it). */
  lastDoc: Int32Array
}

/**
 * Postings logged before the log is encoded into a chunk: 12 MB of log, about 16 000 records. A log
 * of all of a part's postings took 6 bytes each, 640 MB at 1 000 000 records, a fifth of the build's
 * peak; chunks of 8 M postings (48 MB) were still a sixth of what a reload adds at 100 000.
 */
const CHUNK_POSTINGS = 1 << 21

export class TextIndexBuilder {
  readonly #reader = new TermReader()
  /** Per term, its count in the document being added; `#touched` lists the terms counted. */
  #titleCounts = new Uint32Array(1024)
  #bodyCounts = new Uint32Array(1024)
  readonly #touched: number[] = []
  /** The log: one entry per (document, term), documents in order; `#logEnd[d]` ends document d's entries. */
  readonly #logTerm = new Growable('u32')
  readonly #logTitleTf = new Growable('u8')
  readonly #logBodyTf = new Growable('u8')
  readonly #logEnd = new Growable('u32')
  readonly #titleLength = new Growable('f32')
  readonly #bodyLength = new Growable('f32')
  #titles = 0
  #bodies = 0
  /** The log's earlier chunks, encoded: the log is cut every CHUNK_POSTINGS postings, so it never holds them all. */
  readonly #chunks: Runs[] = []
  readonly #chunkPostings: number

  constructor({ chunkPostings = CHUNK_POSTINGS }: { chunkPostings?: number } = {}) {
    this.#chunkPostings = chunkPostings
  }

  /** Adds the next document (documents are numbered in the order they are added). */
  add(title: string, body: string): void {
    const titleWords = this.#count(title, true)
    const bodyWords = this.#count(body, false)
    // Room for the document's postings once, then written in place (a push per posting and per array was a tenth of indexing).
    const touched = this.#touched
    const at = this.#logTerm.length
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf]) log.reserve(touched.length)
    const [logTerm, logTitleTf, logBodyTf] = [
      this.#logTerm.values,
      this.#logTitleTf.values,
      this.#logBodyTf.values,
    ]
    const [titleCounts, bodyCounts] = [this.#titleCounts, this.#bodyCounts]
    for (let k = 0; k < touched.length; k++) {
      const term = touched[k]!
      logTerm[at + k] = term
      logTitleTf[at + k] = Math.min(titleCounts[term]!, 255)
      logBodyTf[at + k] = Math.min(bodyCounts[term]!, 255)
      titleCounts[term] = 0
      bodyCounts[term] = 0
    }
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf]) log.length += touched.length
    touched.length = 0
    this.#logEnd.push(this.#logTerm.length)
    if (this.#logTerm.length >= this.#chunkPostings) this.#chunks.push(this.#encodeLog())
    this.#titleLength.push(titleWords)
    this.#bodyLength.push(bodyWords)
    this.#titles += titleWords
    this.#bodies += bodyWords
  }

  #count(text: string, inTitle: boolean): number {
    const count = this.#reader.read(text)
    const ids = this.#reader.ids
    if (this.#reader.terms.length > this.#titleCounts.length) this.#grow(this.#reader.terms.length)
    const [titleCounts, bodyCounts] = [this.#titleCounts, this.#bodyCounts]
    const counts = inTitle ? titleCounts : bodyCounts
    for (let k = 0; k < count; k++) {
      const term = ids[k]!
      if (titleCounts[term] === 0 && bodyCounts[term] === 0) this.#touched.push(term)
      counts[term]!++
    }
    return count
  }

  #grow(terms: number): void {
    let size = this.#titleCounts.length
    while (size < terms) size *= 2
    const [title, body] = [new Uint32Array(size), new Uint32Array(size)]
    title.set(this.#titleCounts)
    body.set(this.#bodyCounts)
    this.#titleCounts = title
    this.#bodyCounts = body
  }

  /** The index built: the log's chunks laid end to end, term by term (and the log released). */
  part(): TextIndexPart {
    const runs = concatRuns([...this.#chunks.splice(0), this.#encodeLog()], this.#reader.terms.length)
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf, this.#logEnd]) log.release()
    return {
      terms: this.#reader.terms,
      frequency: runs.frequency,
      termStart: runs.termStart,
      postings: runs.postings,
      lastDoc: runs.lastDoc,
      titleLength: this.#titleLength.done(),
      bodyLength: this.#bodyLength.done(),
      titleWords: this.#titles,
      bodyWords: this.#bodies,
    }
  }

  /**
   * The log so far sorted by term (stable, so each term's documents ascend) and encoded
   * (postings-codec.ts), in two passes — one to size each term's run of bytes, one to write it — so
   * that no 6-byte-a-posting copy of the postings is ever made. The log is emptied for the next chunk.
   */
  #encodeLog(): Runs {
    const termCount = this.#reader.terms.length
    const logTerm = this.#logTerm.filled()
    const logTitleTf = this.#logTitleTf.filled()
    const logBodyTf = this.#logBodyTf.filled()
    const logEnd = this.#logEnd.filled()
    const frequency = new Uint32Array(termCount)
    const lastDoc = new Int32Array(termCount).fill(-1)
    const termStart = new Float64Array(termCount + 1)
    for (let doc = 0, i = 0; doc < logEnd.length; doc++) {
      for (const end = logEnd[doc]!; i < end; i++) {
        const term = logTerm[i]!
        termStart[term + 1]! += postingSize(doc - lastDoc[term]! - 1, logTitleTf[i]!, logBodyTf[i]!)
        lastDoc[term] = doc
        frequency[term]!++
      }
    }
    for (let t = 0; t < termCount; t++) termStart[t + 1]! += termStart[t]!
    const postings = pageBacked(Uint8Array, termStart[termCount]!)
    const next = termStart.slice(0, termCount)
    lastDoc.fill(-1)
    for (let doc = 0, i = 0; doc < logEnd.length; doc++) {
      for (const end = logEnd[doc]!; i < end; i++) {
        const term = logTerm[i]!
        next[term] = writePosting(
          postings,
          next[term]!,
          doc - lastDoc[term]! - 1,
          logTitleTf[i]!,
          logBodyTf[i]!,
        )
        lastDoc[term] = doc
      }
    }
    const documents = logEnd.length
    // Offsets into the log restart with the next chunk, in the same memory (its pages already mapped).
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf, this.#logEnd]) log.clear()
    return { frequency, termStart, postings, lastDoc, documents }
  }
}

/** Encoded postings of consecutive documents (numbered from 0): a chunk of a builder's log, or a part. */
type Runs = {
  frequency: Uint32Array
  termStart: Float64Array
  postings: Uint8Array
  lastDoc: Int32Array
  documents: number
}

/**
 * Runs of consecutive documents laid end to end: each term's runs one after the other, where only
 * the first posting of each run is re-encoded, its gap now counted from the previous run's last
 * document holding the term. Run k's term t is term `ids[k][t]` of the result (t itself without `ids`).
 */
function concatRuns(runs: readonly Runs[], termCount: number, ids?: readonly Int32Array[]): Runs {
  if (runs.length === 1 && ids === undefined) return runs[0]!
  const frequency = new Uint32Array(termCount)
  const termStart = new Float64Array(termCount + 1)
  const previous = new Float64Array(termCount)
  /** Calls `each` for every term run of every part, with that run's first posting re-encoded. */
  const forEachRun = (each: (id: number, run: Runs, first: number, rest: number, to: number) => void) => {
    previous.fill(-1)
    let firstDoc = 0
    runs.forEach((run, k) => {
      const termsOfRun = run.frequency.length // a chunk knows the terms read until it was cut
      for (let t = 0; t < termsOfRun; t++) {
        const [from, to] = [run.termStart[t]!, run.termStart[t + 1]!]
        if (from === to) continue
        const id = ids === undefined ? t : ids[k]![t]!
        const { value, end } = readVarint(run.postings, from)
        const doc = firstDoc + (value >>> 1) // the first gap of a run is its document's number in the run
        each(id, run, (doc - previous[id]! - 1) * 2 + (value & 1), end, to)
        previous[id] = firstDoc + run.lastDoc[t]!
        frequency[id]! += run.frequency[t]!
      }
      firstDoc += run.documents
    })
    return firstDoc
  }
  forEachRun((id, _run, first, rest, to) => (termStart[id + 1]! += varintSize(first) + to - rest))
  for (let t = 0; t < termCount; t++) termStart[t + 1]! += termStart[t]!
  const postings = pageBacked(Uint8Array, termStart[termCount]!)
  const next = termStart.slice(0, termCount)
  frequency.fill(0)
  const documents = forEachRun((id, run, first, rest, to) => {
    const at = writeVarint(postings, next[id]!, first)
    postings.set(run.postings.subarray(rest, to), at)
    next[id] = at + to - rest
  })
  return { frequency, termStart, postings, lastDoc: Int32Array.from(previous), documents }
}

/** The index of `parts` side by side: part k's documents follow part k-1's; terms are numbered in order of first appearance. */
export function mergeTextParts(parts: readonly TextIndexPart[]): TextIndexPart {
  if (parts.length === 1) return parts[0]!
  const termIds = new Map<string, number>()
  const terms: string[] = []
  const ids = parts.map((part) =>
    Int32Array.from(part.terms, (term) => {
      let id = termIds.get(term)
      if (id === undefined) termIds.set(term, (id = terms.push(term) - 1))
      return id
    }),
  )
  const runs = concatRuns(
    parts.map((part) => ({ ...part, documents: part.titleLength.length })),
    terms.length,
    ids,
  )
  const lengths = (field: 'titleLength' | 'bodyLength') => {
    const all = pageBacked(Float32Array, runs.documents)
    let at = 0
    for (const part of parts) {
      all.set(part[field], at)
      at += part[field].length
    }
    return all
  }
  return {
    terms,
    frequency: runs.frequency,
    termStart: runs.termStart,
    postings: runs.postings,
    lastDoc: runs.lastDoc,
    titleLength: lengths('titleLength'),
    bodyLength: lengths('bodyLength'),
    titleWords: parts.reduce((n, p) => n + p.titleWords, 0),
    bodyWords: parts.reduce((n, p) => n + p.bodyWords, 0),
  }
}
