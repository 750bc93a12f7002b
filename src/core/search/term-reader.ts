/**
 * The indexed words of a text as term numbers, cut and folded as `tokenize` does, for the index
 * build: indexing spent most of its time in `tokenize` and a Map lookup per word, though a corpus
 * has few distinct words (3 766 in 100 000 generated records, each record holding about 250). Here
 * the text is walked once, folding each character as it goes (a table for ASCII and for BMP
 * characters that fold to one character), and each word is hashed as it is cut and looked up among
 * the words cut before (folded, before plural folding), which keep their term: no string is made
 * for a word already seen, and plural folding and interning run once per distinct word, not once
 * per occurrence. `term-reader.test.ts` checks it word for word against `tokenize`.
 *
 * The table of cut words is written by hand: a Map needs a string key, and making that string per
 * word was most of the cost this avoids.
 */
import { grown } from './growable.js'
import { foldCodePoint, foldPlural, isApostrophe, isElision, isWordChar } from './tokenize.js'

/**
 * What each BMP code unit of a text is, folded, learnt as met (ASCII from the start): UNKNOWN, or
 * NOTHING (a combining mark: folds to nothing), or WORD + u (folds to the one letter or digit u),
 * or SEPARATOR + u (folds to the one unit u, which ends a word), or MANY (folds to several units, or
 * is a surrogate: read through foldCodePoint). One table read per character on the common path.
 */
const UNKNOWN = 0
const NOTHING = 1
const WORD = 2
const SEPARATOR = 0x20000
const MANY = 0xffffffff
const UNIT_CLASS = new Uint32Array(0x10000)

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff
/** The class of a folded unit that is one BMP character. */
const classOf = (unit: number): number =>
  !isSurrogate(unit) && isWordChar(unit) ? WORD + unit : SEPARATOR + unit
for (let c = 0; c < 0x80; c++) UNIT_CLASS[c] = classOf(c >= 0x41 && c <= 0x5a ? c + 0x20 : c) // ASCII: lower case

/** A cut word's entry: its term number times two, plus one when it is an elision before an apostrophe. */
const ELISION = 1
/** The term of an elision seen only before an apostrophe so far: none yet. */
const NO_TERM = -2

export class TermReader {
  /** Indexed words (after plural folding), by term number. */
  readonly terms: string[] = []
  readonly #termIds = new Map<string, number>()
  /**
   * Words as cut from texts (folded, before plural folding): their units end to end in `#cutUnits`,
   * each word's start, length and entry by its index, and the word as a string (`#cutWords`, read
   * only when the word is first met). Typed arrays, so that comparing a word being cut with one seen
   * before reads numbers, not a string's characters: 7 % fewer instructions for the reader.
   */
  #cutUnits = new Uint16Array(1 << 15)
  #cutUnitsLength = 0
  #cutStart = new Int32Array(1 << 12)
  #cutLength = new Int32Array(1 << 12)
  #cutEntries = new Int32Array(1 << 12)
  readonly #cutWords: string[] = []
  /** Open addressing over the cut words: 1 + their index (0 for a free slot), and their hash beside it. */
  #slots = new Int32Array(1 << 13)
  #slotHashes = new Int32Array(1 << 13)
  /** The word being cut, folded, as UTF-16 units. */
  #unit = new Uint16Array(256)
  /** The term numbers of the last text read (valid until the next read). */
  ids = new Int32Array(1024)
  #count = 0

  /** Reads `text`'s words into `ids`; returns how many there are. */
  read(text: string): number {
    this.#count = 0
    // The word being cut lives in locals on the common path (one table read per character).
    let units = this.#unit
    let length = 0
    let hash = 0
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      const known = UNIT_CLASS[unit]!
      if (known >= WORD && known < SEPARATOR) {
        if (length === units.length) this.#unit = units = grown(units)
        const code = known - WORD
        units[length++] = code
        hash = Math.imul(hash ^ code, 0x01000193) // FNV-1a
        continue
      }
      if (known === NOTHING) continue
      if (known !== UNKNOWN && known !== MANY) {
        if (length > 0) this.#end(length, hash, known - SEPARATOR)
        length = hash = 0
        continue
      }
      // Not known yet, or folds to several units, or a surrogate: the code point, folded as `fold` does.
      const point = text.codePointAt(i)!
      if (point > 0xffff) i++
      const folded = foldCodePoint(point)
      if (point <= 0xffff && known === UNKNOWN) {
        const single = folded.length === 1 && !isSurrogate(folded.charCodeAt(0))
        UNIT_CLASS[point] = folded.length === 0 ? NOTHING : single ? classOf(folded.charCodeAt(0)) : MANY
      }
      for (let k = 0; k < folded.length; k++) {
        const code = folded.codePointAt(k)!
        const width = code > 0xffff ? 2 : 1
        if (width === 1 ? (classOf(code) & SEPARATOR) === 0 : isWordChar(code)) {
          for (let w = 0; w < width; w++) {
            if (length === units.length) this.#unit = units = grown(units)
            const c = folded.charCodeAt(k + w)
            units[length++] = c
            hash = Math.imul(hash ^ c, 0x01000193)
          }
        } else {
          if (length > 0) this.#end(length, hash, code)
          length = hash = 0
        }
        k += width - 1
      }
    }
    if (length > 0) this.#end(length, hash, 0x20)
    return this.#count
  }

  /** Ends the word cut into `#unit` ([0, length), hashed `hash`) at `separator`, a folded code point. */
  #end(length: number, hash: number, separator: number): void {
    const index = this.#find(length, hash)
    let entry = this.#cutEntries[index]!
    if ((entry & ELISION) !== 0) {
      if (isApostrophe(separator)) return
      // Interned at its first use as a word: an elision only ever seen before an apostrophe is no term.
      if (entry >> 1 === NO_TERM)
        this.#cutEntries[index] = entry = this.intern(foldPlural(this.#cutWords[index]!)) * 2 + ELISION
    }
    if (this.#count === this.ids.length) this.ids = grown(this.ids)
    this.ids[this.#count++] = entry >> 1
  }

  /** The index of the word being cut among the cut words, added when new. */
  #find(length: number, hash: number): number {
    const units = this.#unit
    const slots = this.#slots
    const hashes = this.#slotHashes
    const mask = slots.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!
      if (held === 0) return this.#add(slot, length, hash)
      if (hashes[slot] !== hash) continue
      const index = held - 1
      if (this.#cutLength[index] !== length) continue
      const cut = this.#cutUnits
      const start = this.#cutStart[index]!
      let k = 0
      while (k < length && cut[start + k] === units[k]) k++
      if (k === length) return index
    }
  }

  #add(slot: number, length: number, hash: number): number {
    const index = this.#cutWords.length
    if (index === this.#cutStart.length) {
      this.#cutStart = grown(this.#cutStart)
      this.#cutLength = grown(this.#cutLength)
      this.#cutEntries = grown(this.#cutEntries)
    }
    while (this.#cutUnitsLength + length > this.#cutUnits.length) this.#cutUnits = grown(this.#cutUnits)
    const start = this.#cutUnitsLength
    this.#cutUnits.set(this.#unit.subarray(0, length), start)
    this.#cutUnitsLength += length
    let word = ''
    for (let k = 0; k < length; k += 4096)
      word += String.fromCharCode(...this.#unit.subarray(k, Math.min(length, k + 4096)))
    this.#cutWords.push(word)
    this.#cutStart[index] = start
    this.#cutLength[index] = length
    this.#cutEntries[index] = isElision(word) ? NO_TERM * 2 + ELISION : this.intern(foldPlural(word)) * 2
    this.#slots[slot] = index + 1
    this.#slotHashes[slot] = hash
    if (this.#cutWords.length * 2 > this.#slots.length) this.#rehash()
    return index
  }

  #rehash(): void {
    const [oldSlots, oldHashes] = [this.#slots, this.#slotHashes]
    const slots = new Int32Array(oldSlots.length * 2)
    const hashes = new Int32Array(slots.length)
    const mask = slots.length - 1
    for (let old = 0; old < oldSlots.length; old++) {
      if (oldSlots[old] === 0) continue
      let slot = oldHashes[old]! & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = oldSlots[old]!
      hashes[slot] = oldHashes[old]!
    }
    this.#slots = slots
    this.#slotHashes = hashes
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
