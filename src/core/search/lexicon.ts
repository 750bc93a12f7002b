/**
 * What the query side needs to know about the index's words: which indexed words are forms of a
 * word, how frequent a word is, and which words a misspelling may be corrected to. Built once per
 * snapshot from the text index's dictionary; it grows with the vocabulary, not with the records.
 */
import type { CorrectionVocabulary } from './correct.js'
import { rewritten, type WordForms } from './forms.js'
import { isIgnorable } from './stop-words.js'
import type { TextIndex } from './text-index.js'

export class Lexicon implements CorrectionVocabulary {
  readonly #text: TextIndex
  readonly #forms: WordForms
  /** Form key → the indexed words that have it (one term number, or several). */
  readonly #byKey = new Map<string, number | number[]>()
  /** Correction candidates by length; built on the first correction. */
  #byLength: Map<number, string[]> | undefined

  constructor(text: TextIndex, forms: WordForms) {
    this.#text = text
    this.#forms = forms
    for (let id = 0; id < text.terms; id++) {
      const key = forms.key(text.term(id))
      const known = this.#byKey.get(key)
      if (known === undefined) this.#byKey.set(key, id)
      else if (typeof known === 'number') this.#byKey.set(key, [known, id])
      else known.push(id)
    }
  }

  termId(word: string): number | undefined {
    return this.#text.termId(word)
  }

  /**
   * The indexed words that are forms of `word` (itself included when indexed), by term number. A
   * word that is not indexed does not find a bare stem that is a word of its own: "stationement"
   * (a typo) must not find "station", though "stationner" finds "stationnement".
   */
  formsOf(word: string): readonly number[] {
    const known = this.#byKey.get(this.#forms.key(word))
    const forms = known === undefined ? [] : typeof known === 'number' ? [known] : known
    if (this.#text.termId(word) !== undefined) return forms
    // A word found nowhere does not match an indexed word that is its own stem ("stationement" is not
    // "station"), unless it is that word by a rewrite of its ending ("conductrice" is "conducteur").
    const rewrite = rewritten(word)
    return forms.filter((id) => {
      const term = this.#text.term(id)
      return this.#forms.key(term) !== term || term === rewrite
    })
  }

  /**
   * Whether some document holds one of the terms `a` and one of the terms `b`: the smaller side's
   * documents are looked up in the other side's postings, until one is found.
   */
  together(a: readonly number[], b: readonly number[]): boolean {
    const size = (terms: readonly number[]) => terms.reduce((n, t) => n + this.#text.frequency(t), 0)
    const [few, many] = size(a) <= size(b) ? [a, b] : [b, a]
    const lists = many.map((t) => this.#text.docs(t))
    for (const term of few) {
      const docs = this.#text.docs(term)
      for (let i = 0; i < docs.length; i++) if (lists.some((list) => holds(list, docs[i]!))) return true
    }
    return false
  }

  frequency(word: string): number {
    const id = this.#text.termId(word)
    return id === undefined || !isCandidate(word) ? 0 : this.#text.frequency(id)
  }

  wordsOfLength(length: number): readonly string[] {
    if (this.#byLength === undefined) {
      this.#byLength = new Map()
      for (let id = 0; id < this.#text.terms; id++) {
        const word = this.#text.term(id)
        if (!isCandidate(word)) continue
        const list = this.#byLength.get(word.length)
        if (list === undefined) this.#byLength.set(word.length, [word])
        else list.push(word)
      }
    }
    return this.#byLength.get(length) ?? []
  }
}

/** Whether the ascending list holds `doc` (binary search). */
function holds(list: Uint32Array, doc: number): boolean {
  let from = 0
  let to = list.length
  while (from < to) {
    const mid = (from + to) >>> 1
    if (list[mid]! < doc) from = mid + 1
    else to = mid
  }
  return list[from] === doc
}

/** A correction may only land on a word of letters, of three or more, that a query would require. */
const isCandidate = (word: string) => word.length >= 3 && /^[a-z]+$/.test(word) && !isIgnorable(word)
