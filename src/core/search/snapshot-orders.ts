/**
 * The orders a snapshot keeps of its documents — by id (the order of equal-scoring results), the
 * listing (kind, title in French collation, id), by url hash — sorted per build thread and merged.
 */
import { pageBacked } from './growable.js'
import { compareTitles, primaryKey } from './title-order.js'

/** Documents in the orders a snapshot keeps: by id, in listing order, by url hash. */
export type Orders = { byId: Uint32Array; order: Uint32Array; byUrl: Uint32Array }
export type Compare = (a: number, b: number) => number

/** What the orders compare, per document. */
export class OrderKeys {
  constructor(
    readonly kinds: Uint8Array,
    readonly titles: readonly string[],
    readonly idPrefix: Uint8Array,
    readonly idHigh: Uint32Array,
    readonly idLow: Uint32Array,
    readonly urlHigh: Uint32Array,
    readonly urlLow: Uint32Array,
    /** The titles' collation keys when already made (by the build threads that sorted their parts). */
    titleKeys?: (string | undefined)[],
  ) {
    this.#titleKeys = titleKeys
  }

  /** Ids' byte order (ties, only between duplicates, by document). */
  readonly byId: Compare = (a, b) =>
    this.idPrefix[a]! - this.idPrefix[b]! ||
    this.idHigh[a]! - this.idHigh[b]! ||
    this.idLow[a]! - this.idLow[b]! ||
    a - b

  /** The titles' collation keys (title-order.ts), made on the listing's first comparison. */
  #titleKeys: (string | undefined)[] | undefined

  /** The titles' collation keys, made now if not yet. */
  titleKeys(): (string | undefined)[] {
    return (this.#titleKeys ??= this.titles.map(primaryKey))
  }

  /** The listing: kind (spec order), title (French collation), id. */
  readonly listing: Compare = (a, b) => {
    const keys = this.titleKeys()
    return (
      this.kinds[a]! - this.kinds[b]! ||
      compareTitles(this.titles[a]!, keys[a], this.titles[b]!, keys[b]) ||
      this.byId(a, b)
    )
  }

  readonly byUrl: Compare = (a, b) =>
    this.urlHigh[a]! - this.urlHigh[b]! || this.urlLow[a]! - this.urlLow[b]! || a - b

  /** Documents [from, to) in each order. */
  sorted(from: number, to: number): Orders {
    const sortedBy = (compare: Compare) => {
      const docs = Array.from({ length: to - from }, (_, i) => from + i)
      docs.sort(compare)
      const sorted = pageBacked(Uint32Array, docs.length)
      sorted.set(docs)
      return sorted
    }
    // Ids and urls are numbers: sorted natively by their first 32 (or 35) bits, the collator's order by comparisons.
    const byId = sortedByMajor(
      from,
      to,
      (doc) => this.idPrefix[doc]! * 2 ** 32 + this.idHigh[doc]!,
      this.byId,
    )
    const byUrl = sortedByMajor(from, to, (doc) => this.urlHigh[doc]!, this.byUrl)
    return {
      byId: byId ?? sortedBy(this.byId),
      order: sortedBy(this.listing),
      byUrl: byUrl ?? sortedBy(this.byUrl),
    }
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1
/** Bits of a packed number that hold the document (below `major`'s, which take the other 35). */
const DOC_BITS = 29

/**
 * Documents [from, to) in the order of `compare`, when that order begins with `major` (an integer
 * below 2^35): each document is packed with its major key into a 64-bit number (the key's bits
 * above, the document's below), the numbers sorted natively, and the runs of equal keys (rare for
 * hashes and random ids) put in `compare`'s order. A comparison sort of 50 000 documents took
 * 20–25 ms per order, the native sort 3. Undefined when the numbers cannot be packed (more than
 * 2^29 documents, a big-endian machine): the caller sorts by comparisons.
 */
function sortedByMajor(
  from: number,
  to: number,
  major: (doc: number) => number,
  compare: Compare,
): Uint32Array | undefined {
  const count = to - from
  if (!LITTLE_ENDIAN || count >= 2 ** DOC_BITS) return undefined
  const packed = new BigUint64Array(count)
  const words = new Uint32Array(packed.buffer)
  for (let i = 0; i < count; i++) {
    const key = major(from + i)
    words[2 * i] = ((key % 8) * 2 ** DOC_BITS + i) >>> 0 // the key's lowest 3 bits, then the document
    words[2 * i + 1] = Math.floor(key / 8) >>> 0
  }
  packed.sort()
  const sorted = pageBacked(Uint32Array, count)
  for (let i = 0; i < count; i++) sorted[i] = from + (words[2 * i]! & (2 ** DOC_BITS - 1))
  // Runs of one major key (equal bits above the document's): ordered by the document so far, by `compare` now.
  const sameMajor = (i: number, j: number) =>
    words[2 * i + 1] === words[2 * j + 1] && words[2 * i]! >>> DOC_BITS === words[2 * j]! >>> DOC_BITS
  for (let start = 0; start < count;) {
    let end = start + 1
    while (end < count && sameMajor(end, start)) end++
    if (end - start > 1) sorted.subarray(start, end).sort(compare)
    start = end
  }
  return sorted
}

/**
 * Sorted runs merged into one sorted list (one run per build thread). Merged two by two, round
 * after round, so each document is compared about log2(runs) times, not once per later run: on a
 * machine with many cores a first build has as many runs, and the listing's comparison (French
 * collation) is the costly one.
 */
export function mergeRuns(runs: Uint32Array[], compare: Compare): Uint32Array {
  let round = runs.length > 0 ? runs : [new Uint32Array(0)]
  while (round.length > 1) {
    const next: Uint32Array[] = []
    for (let k = 0; k + 1 < round.length; k += 2) next.push(mergeTwo(round[k]!, round[k + 1]!, compare))
    if (round.length % 2 === 1) next.push(round.at(-1)!)
    round = next
  }
  return round[0]!
}

/** Two sorted runs merged; on a tie the first run's document comes first (runs are in source order). */
function mergeTwo(first: Uint32Array, second: Uint32Array, compare: Compare): Uint32Array {
  const out = pageBacked(Uint32Array, first.length + second.length)
  let [i, j, k] = [0, 0, 0]
  while (i < first.length && j < second.length)
    out[k++] = compare(first[i]!, second[j]!) <= 0 ? first[i++]! : second[j++]!
  while (i < first.length) out[k++] = first[i++]!
  while (j < second.length) out[k++] = second[j++]!
  return out
}
