/**
 * The orders a snapshot keeps of its documents — by id (the order of equal-scoring results), the
 * listing (kind, title in French collation, id), by url hash — sorted per build thread and merged.
 */
import { pageBacked } from './growable.js'
import { inSharedMemory } from './snapshot-data.js'

const collator = new Intl.Collator('fr')

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

  /** The listing: kind (spec order), title (French collation), id. */
  readonly listing: Compare = (a, b) => this.kinds[a]! - this.kinds[b]! || collator.compare(this.titles[a]!, this.titles[b]!) || this.byId(a, b)

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

/** Sorted runs merged into one sorted list (a few runs: one per build thread); in shared memory if `shared`. */
export function mergeRuns(runs: Uint32Array[], compare: Compare, shared = false): Uint32Array {
  let merged = runs[0] ?? new Uint32Array(0)
  for (const run of runs.slice(1)) {
    const out = pageBacked(Uint32Array, merged.length + run.length)
    let [i, j, k] = [0, 0, 0]
    while (i < merged.length && j < run.length) out[k++] = compare(merged[i]!, run[j]!) <= 0 ? merged[i++]! : run[j++]!
    while (i < merged.length) out[k++] = merged[i++]!
    while (j < run.length) out[k++] = run[j++]!
    merged = out
  }
  return shared ? inSharedMemory(merged) : merged
}
