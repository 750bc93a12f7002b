/**
 * The inverted index, built a document at a time. Each document's postings (term, count in the
 * title, count in the body) are appended to one log in document order; `part()` then sorts the log
 * by term with a counting sort into the shared arrays of TextIndexData. Appending to per-term arrays
 * instead (the earlier design) scattered every posting across thousands of small arrays, and that,
 * not the words, was half of the indexing time.
 *
 * Parts built on other threads from later documents are merged term by term (`mergeTextParts`).
 */
import { Growable } from './growable.js'
import type { TextIndexData } from './snapshot-data.js'
import { TermReader } from './term-reader.js'

/** An index over some documents, with word totals instead of averages, so that parts can be merged. */
export type TextIndexPart = Omit<TextIndexData, 'averageTitle' | 'averageBody'> & { titleWords: number; bodyWords: number }

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

  /** The index built: its log sorted by term (stable, so each term's documents ascend), the log released. */
  part(): TextIndexPart {
    const terms = this.#reader.terms
    const logTerm = this.#logTerm.done()
    const logTitleTf = this.#logTitleTf.done()
    const logBodyTf = this.#logBodyTf.done()
    const logEnd = this.#logEnd.done()
    const termStart = new Uint32Array(terms.length + 1)
    for (let i = 0; i < logTerm.length; i++) termStart[logTerm[i]! + 1]!++
    for (let t = 0; t < terms.length; t++) termStart[t + 1]! += termStart[t]!
    const next = termStart.slice(0, terms.length)
    const docs = new Uint32Array(logTerm.length)
    const titleTf = new Uint8Array(logTerm.length)
    const bodyTf = new Uint8Array(logTerm.length)
    for (let doc = 0, i = 0; doc < logEnd.length; doc++) {
      for (const end = logEnd[doc]!; i < end; i++) {
        const at = next[logTerm[i]!]!++
        docs[at] = doc
        titleTf[at] = logTitleTf[i]!
        bodyTf[at] = logBodyTf[i]!
      }
    }
    for (const log of [this.#logTerm, this.#logTitleTf, this.#logBodyTf, this.#logEnd]) log.release()
    return {
      terms,
      termStart,
      docs,
      titleTf,
      bodyTf,
      titleLength: this.#titleLength.done(),
      bodyLength: this.#bodyLength.done(),
      titleWords: this.#titles,
      bodyWords: this.#bodies,
    }
  }
}

/** The index of `parts` side by side: part k's documents follow part k-1's; terms are numbered in order of first appearance. */
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
  const termStart = new Uint32Array(terms.length + 1)
  parts.forEach((part, k) => mapped[k]!.forEach((id, t) => (termStart[id + 1]! += part.termStart[t + 1]! - part.termStart[t]!)))
  for (let t = 0; t < terms.length; t++) termStart[t + 1]! += termStart[t]!
  const total = termStart[terms.length]!
  const docs = new Uint32Array(total)
  const titleTf = new Uint8Array(total)
  const bodyTf = new Uint8Array(total)
  const next = termStart.slice(0, terms.length)
  let firstDoc = 0
  parts.forEach((part, k) => {
    mapped[k]!.forEach((id, t) => {
      const [from, to] = [part.termStart[t]!, part.termStart[t + 1]!]
      const at = next[id]!
      for (let i = from; i < to; i++) docs[at + i - from] = part.docs[i]! + firstDoc
      titleTf.set(part.titleTf.subarray(from, to), at)
      bodyTf.set(part.bodyTf.subarray(from, to), at)
      next[id] = at + to - from
    })
    firstDoc += part.titleLength.length
  })
  const lengths = (field: 'titleLength' | 'bodyLength') => {
    const all = new Float32Array(firstDoc)
    let at = 0
    for (const part of parts) {
      all.set(part[field], at)
      at += part[field].length
    }
    return all
  }
  return {
    terms,
    termStart,
    docs,
    titleTf,
    bodyTf,
    titleLength: lengths('titleLength'),
    bodyLength: lengths('bodyLength'),
    titleWords: parts.reduce((n, p) => n + p.titleWords, 0),
    bodyWords: parts.reduce((n, p) => n + p.bodyWords, 0),
  }
}
