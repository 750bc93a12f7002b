/**
 * The indexed words of a text as term numbers, cut and folded as `tokenize` does, for the index
 * build: indexing spent most of its time in `tokenize` and a Map lookup per word, though a corpus
 * has few distinct words (3 766 in 100 000 generated records, each record holding about 250). Here
 * the text is walked once with a table of character kinds, and each word is looked up as it was
 * cut (folded, before plural folding) among the words seen before, which keep their term: plural
 * folding and interning run once per distinct word, not once per occurrence. `term-reader.test.ts`
 * checks it word for word against `tokenize`.
 */
import { grown } from './growable.js'
import { fold, foldPlural, isApostrophe, isElision, isWordChar } from './tokenize.js'

/** What each BMP code unit is, learnt as met: a table read beats isWordChar's call for every character. */
const UNKNOWN = 0
const WORD = 1
const SEPARATOR = 2
const BMP_KIND = new Uint8Array(0x10000)

/** A cut word's entry: its term number times two, plus one when it is an elision before an apostrophe. */
const ELISION = 1
/** The term of an elision seen only before an apostrophe so far: none yet. */
const NO_TERM = -2

export class TermReader {
  /** Indexed words (after plural folding), by term number. */
  readonly terms: string[] = []
  readonly #termIds = new Map<string, number>()
  /** Words as cut from texts, folded, before plural folding. */
  readonly #cut = new Map<string, number>()
  /** The term numbers of the last text read (valid until the next read). */
  ids = new Int32Array(1024)

  /** Reads `text`'s words into `ids`; returns how many there are. */
  read(text: string): number {
    const s = fold(text)
    const cut = this.#cut
    let ids = this.ids
    let count = 0
    let start = -1
    for (let i = 0; i <= s.length; i++) {
      const unit = i < s.length ? s.charCodeAt(i) : 0x20
      // The same walk as tokenize: a code point is read only where a surrogate pair may start.
      const surrogate = unit >= 0xd800 && unit <= 0xdbff
      const code = surrogate ? s.codePointAt(i)! : unit
      let kind = surrogate ? UNKNOWN : BMP_KIND[code]!
      if (kind === UNKNOWN) {
        kind = isWordChar(code) ? WORD : SEPARATOR
        if (!surrogate) BMP_KIND[code] = kind
      }
      if (kind === WORD) {
        if (start < 0) start = i
        if (code > 0xffff) i++
        continue
      }
      if (start < 0) continue
      const word = s.slice(start, i)
      start = -1
      let entry = cut.get(word)
      if (entry === undefined) cut.set(word, (entry = isElision(word) ? NO_TERM * 2 + ELISION : this.intern(foldPlural(word)) * 2))
      if ((entry & ELISION) !== 0) {
        if (isApostrophe(code)) continue
        // Interned at its first use as a word: an elision only ever seen before an apostrophe is no term.
        if (entry >> 1 === NO_TERM) cut.set(word, (entry = this.intern(foldPlural(word)) * 2 + ELISION))
      }
      if (count === ids.length) this.ids = ids = grown(ids)
      ids[count++] = entry >> 1
    }
    return count
  }

  /** The number of an indexed word (after plural folding), added when new. */
  intern(term: string): number {
    let id = this.#termIds.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.terms.push(term)
      this.#termIds.set(term, id)
    }
    return id
  }
}
