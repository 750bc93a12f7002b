/**
 * What the query side needs to know about the index's words: which indexed words are forms of a
 * word, how frequent a word is, and which words a misspelling may be corrected to. Built once per
 * snapshot from the text index's dictionary; it grows with the vocabulary, not with the records.
 *
 * Its tables (`LexiconData`) are plain arrays, made with the snapshot in the build's thread and
 * handed over with it: made on the first search instead, they held the serving thread 0.1–0.15 s at
 * 100 000 records (every indexed word's form key, then every correction candidate).
 */
import type { CorrectionVocabulary } from './correct.js'
import { rewritten, type WordForms } from './forms.js'
import { isIgnorable } from './stop-words.js'
import type { LexiconData } from './snapshot-data.js'
import type { TextIndex } from './text-index.js'

/** The tables of `text`'s words under `forms`: one pass over the dictionary (a build does it). */
export function lexiconData(text: TextIndex, forms: WordForms): LexiconData {
  const keyOf: string[] = new Array<string>(text.terms)
  for (let id = 0; id < text.terms; id++) keyOf[id] = forms.key(text.term(id))
  const byKey = Uint32Array.from({ length: text.terms }, (_, id) => id).sort((a, b) => {
    const x = keyOf[a]!
    const y = keyOf[b]!
    return x < y ? -1 : x > y ? 1 : a - b
  })
  const keys: string[] = []
  const starts: number[] = []
  byKey.forEach((id, i) => {
    if (i === 0 || keyOf[id] !== keyOf[byKey[i - 1]!]) {
      keys.push(keyOf[id]!)
      starts.push(i)
    }
  })
  starts.push(byKey.length)
  const candidates: number[] = []
  for (let id = 0; id < text.terms; id++) if (isCandidate(text.term(id))) candidates.push(id)
  candidates.sort((a, b) => text.term(a).length - text.term(b).length || a - b)
  const longest = candidates.length === 0 ? 0 : text.term(candidates[candidates.length - 1]!).length
  const lengthStart = new Uint32Array(longest + 2)
  let at = 0
  for (let n = 0; n <= longest + 1; n++) {
    while (at < candidates.length && text.term(candidates[at]!).length < n) at++
    lengthStart[n] = at
  }
  return {
    keys,
    keyStart: Uint32Array.from(starts),
    termsByKey: byKey,
    candidates: Uint32Array.from(candidates),
    lengthStart,
  }
}

export class Lexicon implements CorrectionVocabulary {
  readonly #text: TextIndex
  readonly #forms: WordForms
  readonly #data: LexiconData
  /** Correction candidates by length, as words, for the lengths asked so far. */
  readonly #byLength = new Map<number, string[]>()

  /** `data`: the tables made with the snapshot under the same forms; made here when not given. */
  constructor(text: TextIndex, forms: WordForms, data: LexiconData = lexiconData(text, forms)) {
    this.#text = text
    this.#forms = forms
    this.#data = data
  }

  /** The tables, for a build to hand on with its snapshot. */
  get data(): LexiconData {
    return this.#data
  }

  /** The indexed words whose form key is `key`, by term number. */
  #withKey(key: string): readonly number[] {
    const { keys, keyStart, termsByKey } = this.#data
    const from = firstAtLeast(keys, key)
    if (keys[from] !== key) return []
    return Array.from(termsByKey.subarray(keyStart[from]!, keyStart[from + 1]!))
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
    const forms = this.#withKey(this.#forms.key(word))
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
    const known = this.#byLength.get(length)
    if (known !== undefined) return known
    const { candidates, lengthStart } = this.#data
    if (!Number.isInteger(length) || length < 0 || length + 1 >= lengthStart.length) return []
    const words = Array.from(candidates.subarray(lengthStart[length]!, lengthStart[length + 1]!), (id) =>
      this.#text.term(id),
    )
    this.#byLength.set(length, words)
    return words
  }
}

/** Whether the ascending list holds `doc`. */
function holds(list: Uint32Array, doc: number): boolean {
  return list[firstAtLeast(list, doc)] === doc
}

/** The position of the first item of the ascending `list` that is not below `value` (binary search). */
function firstAtLeast<T extends number | string>(list: ArrayLike<T>, value: T): number {
  let from = 0
  let to = list.length
  while (from < to) {
    const mid = (from + to) >>> 1
    if (list[mid]! < value) from = mid + 1
    else to = mid
  }
  return from
}

/** A correction may only land on a word of letters, of three or more, that a query would require. */
const isCandidate = (word: string) => word.length >= 3 && /^[a-z]+$/.test(word) && !isIgnorable(word)
