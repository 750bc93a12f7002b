/**
 * Work space of one index for the general evaluation (match.ts): the union of the rarest group's
 * postings, and per candidate whether it matched, its tier and its score; and for best match
 * (best-match.ts) a mark, a slot and a bound per document. Reused by every search of the index
 * (searches run one at a time, and what a search returns is copied out of it), grown to the largest
 * set met and never past one entry per document: 18 bytes a document at most for the first, 26 more
 * for best match counted term at a time, made the first time a query needs them.
 *
 * Arrays made per search came from malloc, which keeps freed blocks for later allocations: with the
 * decoded postings also there, malloc's heap grew from 8 to 131 MiB over a query mix at 1 000 000
 * records (docs/scale.md), and never gave it back. These arrays are page-backed (growable.ts), so
 * what a swapped-out snapshot's space held goes back to the system with it.
 */
import { pageBacked } from './growable.js'

type Constructor<T> = Parameters<typeof pageBacked<T>>[0]

export type BestMatchSlots = {
  slotOf: Uint32Array
  doc: Uint32Array
  level: Uint8Array
  reach: Float64Array
  out: Uint32Array
}

export class CandidateSpace {
  #union = new Uint32Array(0)
  #marks: Uint8Array | undefined
  #matched = new Uint32Array(0)
  #tiers = new Uint8Array(0)
  #scores = new Float64Array(0)
  #seen: Uint32Array | undefined
  #search = 0
  #bestMatch: BestMatchSlots | undefined
  #bitRows = new Uint32Array(0)

  constructor(readonly documentCount: number) {}

  /**
   * A mark per document for one search: `seen[doc] === search` when this search marked it. Each
   * call starts a new search, so no mark needs clearing (4 bytes a document, made on first use).
   */
  seen(): { seen: Uint32Array; search: number } {
    this.#seen ??= pageBacked(Uint32Array, this.documentCount)
    if (++this.#search === 2 ** 32) {
      this.#seen.fill(0)
      this.#search = 1
    }
    return { seen: this.#seen, search: this.#search }
  }

  /**
   * Best match's arrays (best-match.ts): per document its slot, per slot the document, its group
   * count and its bound, and room for the documents handed out: 22 bytes a document, made on first use.
   */
  bestMatchSlots(): BestMatchSlots {
    const n = this.documentCount
    return (this.#bestMatch ??= {
      slotOf: pageBacked(Uint32Array, n),
      doc: pageBacked(Uint32Array, n),
      level: pageBacked(Uint8Array, n),
      reach: pageBacked(Float64Array, n),
      out: pageBacked(Uint32Array, n),
    })
  }

  /**
   * Room for best match's rows of bits (coverage-levels.ts): `length` words, stale. A few dozen
   * rows of a bit a document (125 KiB each at 1 000 000 documents: 2.9 MiB for 8 groups), kept for
   * the next query. Not page-backed: V8 (Node 20) reads a typed array over a resizable buffer about
   * three times slower, and these rows are read word by word by every pass.
   */
  bitRows(length: number): Uint32Array {
    if (length > this.#bitRows.length) this.#bitRows = new Uint32Array(length)
    return this.#bitRows.subarray(0, length)
  }

  /** Room for a union of `size` documents (the values past what the caller writes are stale). */
  union(size: number): Uint32Array {
    return size <= this.#union.length
      ? this.#union
      : (this.#union = this.#grown(Uint32Array, this.#union.length, size))
  }

  /** A byte per document, all 0: whoever sets a mark clears it before the next search. */
  marks(): Uint8Array {
    return (this.#marks ??= pageBacked(Uint8Array, this.documentCount))
  }

  /** Room for `count` candidates' results (stale values past what the caller writes). */
  perCandidate(count: number): { matched: Uint32Array; tiers: Uint8Array; scores: Float64Array } {
    if (count > this.#matched.length) {
      const length = this.#matched.length
      this.#matched = this.#grown(Uint32Array, length, count)
      this.#tiers = this.#grown(Uint8Array, length, count)
      this.#scores = this.#grown(Float64Array, length, count)
    }
    return { matched: this.#matched, tiers: this.#tiers, scores: this.#scores }
  }

  /**
   * Steps that make the arrays a search of several words uses at their largest (a document each)
   * and write their pages, an array a step or so, for a caller to run one a turn before the first
   * such search (text-index.ts, `readAhead`): made inside that search, their page faults alone held
   * the serving thread 20–30 ms at 1 000 000 records. Best match's arrays only when `bestMatch`.
   * Empty once made.
   */
  firstUseSteps(bestMatch: boolean): (() => void)[] {
    const n = this.documentCount
    const steps: (() => void)[] = []
    if (this.#seen === undefined) steps.push(() => touchPages(this.seen().seen))
    if (this.#union.length < n) steps.push(() => touchPages(this.union(n)))
    if (this.#matched.length < n)
      steps.push(() => {
        const { matched, tiers, scores } = this.perCandidate(n)
        for (const array of [matched, tiers, scores]) touchPages(array)
      })
    if (bestMatch && this.#bestMatch === undefined)
      for (const name of ['slotOf', 'doc', 'level', 'reach', 'out'] as const)
        steps.push(() => touchPages(this.bestMatchSlots()[name]))
    return steps
  }

  /** A larger array: doubling (so a run of growing searches costs little), capped at a document each unless more is asked. */
  #grown<T>(type: Constructor<T>, length: number, needed: number): T {
    return pageBacked(type, Math.max(needed, Math.min(this.documentCount, Math.max(1024, length * 2))))
  }
}

/**
 * Writes a 0 in each page of `array` (all 0 already, fresh from the system), so that the system
 * gives it its pages now rather than at the first write of a search. A write a page, not a fill:
 * `fill` over a page-backed array (a resizable buffer) costs a slow path per element.
 */
function touchPages(array: Uint8Array | Uint32Array | Float64Array): void {
  const step = PAGE_BYTES / array.BYTES_PER_ELEMENT
  for (let i = 0; i < array.length; i += step) array[i] = 0
}

const PAGE_BYTES = 4096
