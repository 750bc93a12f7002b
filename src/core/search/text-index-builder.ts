/**
 * The inverted index, built a document at a time. Each document's postings (term, count in the
 * title, count in the body) are appended to one log in document order; `part()` then sorts the log
 * by term, encoding each term's postings into one shared byte array (TextIndexData). Appending to
 * per-term arrays instead (the earlier design) scattered every posting across thousands of small
 * arrays, and that, not the words, was half of the indexing time.
 *
 * Parts built on other threads from later documents are merged term by term (`mergeTextParts`).
 */
import { Growable } from './growable.js'
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

  /** Adds the next document (documents are numbered in the order they are added). */
  add(title: string, body: string): void {
    const titleWords = this.#count(title, true)
    const bodyWords = this.#count(body, false)
    for (const term of this.#touched) {
      this.#logTerm.push(term)
      this.#logTitleTf.push(Math.min(this.#titleCounts[term]!, 255))
      this.#logBodyTf.push(Math.min(this.#bodyCounts[term]!, 255))
      this.#titleCounts[term] = 0
      this.#bodyCounts[term] = 0
    }
    this.#touched.length = 0
    this.#logEnd.push(this.#logTerm.length)
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

  /**
   * The index built: its log sorted by term (stable, so each term's documents ascend) and encoded
   * (postings-codec.ts), in two passes — one to size each term's run of bytes, one to write it — so
   * that no 6-byte-a-posting copy of the postings is ever made. The log is released.
   */
  part(): TextIndexPart {
    const termCount = this.#reader.terms.length
    const logTerm = this.#logTerm.done()
    const logTitleTf = this.#logTitleTf.done()
    const logBodyTf = this.#logBodyTf.done()
    const logEnd = this.#logEnd.done()
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
    const postings = new Uint8Array(termStart[termCount]!)
    const next = termStart.slice(0, termCount)
    lastDoc.fill(-1)
    for (let doc = 0, i = 0; doc < logEnd.length; doc++) {
      for (const end = logEnd[doc]!; i < end; i++) {
        const term = logTerm[i]!
        next[term] = writePosting(postings, next[term]!, doc - lastDoc[term]! - 1, logTitleTf[i]!, logBodyTf[i]!)
        lastDoc[term] = doc
      }
    }
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf, this.#logEnd]) log.release()
    return {
      terms: this.#reader.terms,
      frequency,
      termStart,
      postings,
      lastDoc,
      titleLength: this.#titleLength.done(),
      bodyLength: this.#bodyLength.done(),
      titleWords: this.#titles,
      bodyWords: this.#bodies,
    }
  }
}

/**
 * The index of `parts` side by side: part k's documents follow part k-1's; terms are numbered in
 * order of first appearance. A term's runs are laid end to end; only the first posting of each part's
 * run is re-encoded, its gap now counted from the previous part's last document holding the term.
 */
export function mergeTextParts(parts: readonly TextIndexPart[]): TextIndexPart {
  if (parts.length === 1) return parts[0]!
  const termIds = new Map<string, number>()
  const terms: string[] = []
  const mapped = parts.map((part) =>
    part.terms.map((term) => {
      let id = termIds.get(term)
      if (id === undefined) termIds.set(term, (id = terms.push(term) - 1))
      return id
    }),
  )
  const frequency = new Uint32Array(terms.length)
  const termStart = new Float64Array(terms.length + 1)
  const previous = new Float64Array(terms.length)
  /** Calls `each` for every term run of every part, with that run's first posting re-encoded. */
  const forEachRun = (each: (id: number, part: TextIndexPart, first: number, rest: number, to: number) => void) => {
    previous.fill(-1)
    let firstDoc = 0
    parts.forEach((part, k) => {
      mapped[k]!.forEach((id, t) => {
        const [from, to] = [part.termStart[t]!, part.termStart[t + 1]!]
        if (from === to) return
        const { value, end } = readVarint(part.postings, from)
        const doc = firstDoc + (value >>> 1) // the first gap of a run is its document's number in the part
        each(id, part, (doc - previous[id]! - 1) * 2 + (value & 1), end, to)
        previous[id] = firstDoc + part.lastDoc[t]!
        frequency[id]! += part.frequency[t]!
      })
      firstDoc += part.titleLength.length
    })
  }
  forEachRun((id, _part, first, rest, to) => (termStart[id + 1]! += varintSize(first) + to - rest))
  for (let t = 0; t < terms.length; t++) termStart[t + 1]! += termStart[t]!
  const postings = new Uint8Array(termStart[terms.length]!)
  const next = termStart.slice(0, terms.length)
  frequency.fill(0)
  forEachRun((id, part, first, rest, to) => {
    const at = writeVarint(postings, next[id]!, first)
    postings.set(part.postings.subarray(rest, to), at)
    next[id] = at + to - rest
  })
  const lengths = (field: 'titleLength' | 'bodyLength') => {
    const all = new Float32Array(parts.reduce((n, part) => n + part[field].length, 0))
    let at = 0
    for (const part of parts) {
      all.set(part[field], at)
      at += part[field].length
    }
    return all
  }
  return {
    terms,
    frequency,
    termStart,
    postings,
    lastDoc: Int32Array.from(previous),
    titleLength: lengths('titleLength'),
    bodyLength: lengths('bodyLength'),
    titleWords: parts.reduce((n, p) => n + p.titleWords, 0),
    bodyWords: parts.reduce((n, p) => n + p.bodyWords, 0),
  }
}
