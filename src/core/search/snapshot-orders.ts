/**
 * The orders a snapshot keeps of its documents — by id (the order of equal-scoring results), the
 * listing (kind, title in French collation, id), by url hash — sorted per build thread and merged.
 */
import { pageBacked } from './growable.js'
import { inSharedMemory } from './snapshot-data.js'
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
  ) {}

  /** Ids' byte order (ties, only between duplicates, by document). */
  readonly byId: Compare = (a, b) =>
    this.idPrefix[a]! - this.idPrefix[b]! || this.idHigh[a]! - this.idHigh[b]! || this.idLow[a]! - this.idLow[b]! || a - b

  /** The titles' collation keys (title-order.ts), made on the listing's first comparison. */
  #titleKeys: (string | undefined)[] | undefined

  /** The listing: kind (spec order), title (French collation), id. */
  readonly listing: Compare = (a, b) => {
    const keys = (this.#titleKeys ??= this.titles.map(primaryKey))
    return this.kinds[a]! - this.kinds[b]! || compareTitles(this.titles[a]!, keys[a], this.titles[b]!, keys[b]) || this.byId(a, b)
  }

  readonly byUrl: Compare = (a, b) => this.urlHigh[a]! - this.urlHigh[b]! || this.urlLow[a]! - this.urlLow[b]! || a - b

  /** Documents [from, to) in each order. */
  sorted(from: number, to: number): Orders {
    const sortedBy = (compare: Compare) => {
      const docs = Array.from({ length: to - from }, (_, i) => from + i)
      docs.sort(compare)
      const sorted = pageBacked(Uint32Array, docs.length)
      sorted.set(docs)
      return sorted
    }
    return { byId: sortedBy(this.byId), order: sortedBy(this.listing), byUrl: sortedBy(this.byUrl) }
  }
}

/**
 * Sorted runs merged into one sorted list (one run per build thread); in shared memory if
 * `shared`. Merged two by two, round after round, so each document is compared about log2(runs)
 * times, not once per later run: on a machine with many cores a first build has as many runs, and
 * the listing's comparison (French collation) is the costly one.
 */
export function mergeRuns(runs: Uint32Array[], compare: Compare, shared = false): Uint32Array {
  let round = runs.length > 0 ? runs : [new Uint32Array(0)]
  while (round.length > 1) {
    const next: Uint32Array[] = []
    for (let k = 0; k + 1 < round.length; k += 2) next.push(mergeTwo(round[k]!, round[k + 1]!, compare))
    if (round.length % 2 === 1) next.push(round.at(-1)!)
    round = next
  }
  return shared ? inSharedMemory(round[0]!) : round[0]!
}

/** Two sorted runs merged; on a tie the first run's document comes first (runs are in source order). */
function mergeTwo(first: Uint32Array, second: Uint32Array, compare: Compare): Uint32Array {
  const out = pageBacked(Uint32Array, first.length + second.length)
  let [i, j, k] = [0, 0, 0]
  while (i < first.length && j < second.length) out[k++] = compare(first[i]!, second[j]!) <= 0 ? first[i++]! : second[j++]!
  while (i < first.length) out[k++] = first[i++]!
  while (j < second.length) out[k++] = second[j++]!
  return out
}
