/**
 * The postings of a word most documents hold, as bits: one bit a document for "holds it", one for
 * "holds it otherwise than once in the body alone" (about half of a common word's postings), and
 * the two counts of those only, in a byte (`title << 4 | body`, or ESCAPE and the counts kept
 * aside). At 1 000 000 records a word held by half the documents takes about 0.5 MB so, against
 * 3 MB decoded as arrays (6 bytes a posting): the index's cache keeps the common words of many
 * queries instead of two or three, and a search asks "does this document hold the word" with a bit
 * test instead of a seek. The bits are page-backed (growable.ts), so that their pages go back to the
 * system when the cache lets a word go.
 *
 * Built from a word's encoded run (postings-codec.ts) in one pass, when a search first needs it; the
 * snapshot keeps only the encoded postings.
 */
import { pageBacked } from './growable.js'
import { decodeIntoBits, type EncodedRun } from './postings-codec.js'
import type { Postings } from './postings.js'

/** Words of bits per rank block: the special bits set before each block are counted. */
const BLOCK_WORDS = 8
const ESCAPE = 0xff

export class DensePostings {
  /** Bit `doc` is set when the document holds the word. */
  readonly member: Uint32Array
  /** Bit `doc` is set when the document holds the word and its counts are not (title 0, body 1). */
  readonly special: Uint32Array
  /** Per block of BLOCK_WORDS words of `special`: how many bits are set before it. */
  readonly #rank: Uint32Array
  /** The counts of the special documents, in document order, a byte each (ESCAPE: in `#escaped`). */
  readonly #counts: Uint8Array
  /** The counts of the special documents whose byte is ESCAPE, by their place among the special ones. */
  readonly #escaped: Map<number, number>
  /** Documents whose title holds the word, ascending, and the count in each title. */
  readonly titled: { readonly docs: Uint32Array; readonly titleTf: Uint8Array }
  /** Documents holding the word. */
  readonly length: number

  private constructor(
    member: Uint32Array,
    special: Uint32Array,
    rank: Uint32Array,
    counts: Uint8Array,
    escaped: Map<number, number>,
    titled: { readonly docs: Uint32Array; readonly titleTf: Uint8Array },
    length: number,
  ) {
    this.member = member
    this.special = special
    this.#rank = rank
    this.#counts = counts
    this.#escaped = escaped
    this.titled = titled
    this.length = length
  }

  /** The bits and counts with their rank blocks and titled documents made. */
  static #made(
    member: Uint32Array,
    special: Uint32Array,
    counts: Uint8Array,
    escaped: Map<number, number>,
    length: number,
  ): DensePostings {
    const rank = new Uint32Array(Math.ceil(special.length / BLOCK_WORDS) + 1)
    let count = 0
    for (let w = 0; w < special.length; w++) {
      if (w % BLOCK_WORDS === 0) rank[w / BLOCK_WORDS] = count
      count += popcount(special[w]!)
    }
    const titleOf = (i: number) => {
      const c = counts[i]!
      return c === ESCAPE ? escaped.get(i)! >>> 8 : c >>> 4
    }
    let titledCount = 0
    for (let i = 0; i < counts.length; i++) if (titleOf(i) > 0) titledCount++
    const titledDocs = new Uint32Array(titledCount)
    const titledTf = new Uint8Array(titledCount)
    // The special documents in order, each with its place among them: the titled ones are among them.
    for (let w = 0, i = 0, k = 0; w < special.length && k < titledCount; w++) {
      let word = special[w]!
      while (word !== 0) {
        const low = word & -word
        const tf = titleOf(i++)
        if (tf > 0) {
          titledDocs[k] = (w << 5) + 31 - Math.clz32(low)
          titledTf[k++] = tf
        }
        word = (word ^ low) >>> 0
      }
    }
    const titled = { docs: titledDocs, titleTf: titledTf }
    return new DensePostings(member, special, rank, counts, escaped, titled, length)
  }

  /**
   * The same postings as plain arrays of their own (no page-backed or shared memory), to hand from
   * the build's thread to the serving one (text-index.ts, `prebuiltDense`): transferred, not copied.
   */
  parts(): DenseParts {
    return {
      member: this.member.slice(),
      special: this.special.slice(),
      rank: this.#rank.slice(),
      counts: this.#counts.slice(),
      escapedAt: Uint32Array.from(this.#escaped.keys()),
      escapedCounts: Uint32Array.from(this.#escaped.values()),
      titledDocs: this.titled.docs.slice(),
      titledTf: this.titled.titleTf.slice(),
      length: this.length,
    }
  }

  /** Postings from their parts (`parts()`), reading the arrays in place. */
  static fromParts(p: DenseParts): DensePostings {
    const escaped = new Map<number, number>()
    p.escapedAt.forEach((at, i) => escaped.set(at, p.escapedCounts[i]!))
    const titled = { docs: p.titledDocs, titleTf: p.titledTf }
    return new DensePostings(p.member, p.special, p.rank, p.counts, escaped, titled, p.length)
  }

  /**
   * The postings of `run` over `documentCount` documents, read in one pass by the codec
   * (postings-codec.ts), which alone knows the encoding.
   */
  static fromRun(run: EncodedRun, documentCount: number): DensePostings {
    const [member, special] = bitsFor(documentCount)
    const counts = new Uint8Array(run.count)
    const escaped = new Map<number, number>()
    const specials = decodeIntoBits(run, member, special, counts, escaped)
    return DensePostings.#made(member, special, counts.slice(0, specials), escaped, run.count)
  }

  /** The same postings, from arrays (for tests, and words decoded already). */
  static fromPostings(postings: Postings, documentCount: number): DensePostings {
    const count = postings.docs.length
    const [member, special] = bitsFor(documentCount)
    const counts = new Uint8Array(count)
    const escaped = new Map<number, number>()
    let specials = 0
    for (let i = 0; i < count; i++) {
      const doc = postings.docs[i]!
      setBit(member, doc)
      const title = postings.titleTf[i]!
      const body = postings.bodyTf[i]!
      if (title === 0 && body === 1) continue
      setBit(special, doc)
      if (title < 15 && body < 15) counts[specials] = (title << 4) | body
      else {
        counts[specials] = ESCAPE
        escaped.set(specials, (title << 8) | body)
      }
      specials++
    }
    return DensePostings.#made(member, special, counts.slice(0, specials), escaped, count)
  }

  /** Bytes held. */
  get bytes(): number {
    return (
      (this.member.length + this.special.length + this.#rank.length) * 4 +
      this.#counts.length +
      this.#escaped.size * 16 +
      this.titled.docs.length * 5
    )
  }

  has(doc: number): boolean {
    return hasBit(this.member, doc)
  }

  /** The place of a special document among the special ones. */
  #specialIndex(doc: number): number {
    const word = doc >>> 5
    const block = (word / BLOCK_WORDS) | 0
    let n = this.#rank[block]!
    for (let w = block * BLOCK_WORDS; w < word; w++) n += popcount(this.special[w]!)
    const below = doc & 31
    return below === 0 ? n : n + popcount(this.special[word]! & ((1 << below) - 1))
  }

  /** The title count of a document holding the word. */
  titleTf(doc: number): number {
    if (!hasBit(this.special, doc)) return 0
    const i = this.#specialIndex(doc)
    const counts = this.#counts[i]!
    return counts === ESCAPE ? this.#escaped.get(i)! >>> 8 : counts >>> 4
  }

  /** The body count of a document holding the word. */
  bodyTf(doc: number): number {
    if (!hasBit(this.special, doc)) return 1
    const i = this.#specialIndex(doc)
    const counts = this.#counts[i]!
    return counts === ESCAPE ? this.#escaped.get(i)! & 0xff : counts & 0x0f
  }

  /** The documents holding the word, ascending, written into `into` (at least `length` long). */
  docsInto(into: Uint32Array): Uint32Array {
    return bitsInto(this.member, into)
  }
}

/** A DensePostings as typed arrays (`DensePostings.parts`), each with a buffer of its own. */
export type DenseParts = {
  member: Uint32Array
  special: Uint32Array
  rank: Uint32Array
  counts: Uint8Array
  /** The places among the special documents of the escaped counts, and those counts (`title << 8 | body`). */
  escapedAt: Uint32Array
  escapedCounts: Uint32Array
  titledDocs: Uint32Array
  titledTf: Uint8Array
  length: number
}

/** The arrays of `parts`, to list their buffers for a transfer. */
export function partsArrays(parts: DenseParts): ArrayBufferView[] {
  const { member, special, rank, counts, escapedAt, escapedCounts, titledDocs, titledTf } = parts
  return [member, special, rank, counts, escapedAt, escapedCounts, titledDocs, titledTf]
}

/** A word's postings as a search reads them: arrays, or bits for a word most documents hold. */
export type TermPostings = Postings | DensePostings

/** The postings of a term number, as arrays or bits. */
export type TermPostingsOf = (term: number) => TermPostings

/** Documents holding the word. */
export function lengthOf(postings: TermPostings): number {
  return postings instanceof DensePostings ? postings.length : postings.docs.length
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/** How many bits of `bits` are set. */
export function countBits(bits: Uint32Array): number {
  let count = 0
  for (let w = 0; w < bits.length; w++) count += popcount(bits[w]!)
  return count
}

/** The two bit sets of a word over `documentCount` documents, in one page-backed block. */
function bitsFor(documentCount: number): [Uint32Array, Uint32Array] {
  const words = (documentCount + 31) >>> 5
  const block = pageBacked(Uint32Array, 2 * words)
  return [block.subarray(0, words), block.subarray(words)]
}

/** Sets bit `index` of `bits`. */
export function setBit(bits: Uint32Array, index: number): void {
  bits[index >>> 5] = (bits[index >>> 5]! | (1 << (index & 31))) >>> 0
}

/** The index of the lowest bit set of `bits`, word `w`'s (32 indexes a word). */
export function lowestDoc(w: number, bits: number): number {
  return (w << 5) + 31 - Math.clz32(bits & -bits)
}

/** Whether bit `index` of `bits` is set. */
export function hasBit(bits: Uint32Array, index: number): boolean {
  return ((bits[index >>> 5]! >>> (index & 31)) & 1) === 1
}

/** The indexes of the bits set, ascending, written into `into`. */
export function bitsInto(bits: Uint32Array, into: Uint32Array): Uint32Array {
  let k = 0
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!
    while (word !== 0) {
      const low = word & -word
      into[k++] = (w << 5) + 31 - Math.clz32(low)
      word = (word ^ low) >>> 0
    }
  }
  return into.subarray(0, k)
}
