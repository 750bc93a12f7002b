/**
 * Answers to broad one-word queries, prepared when a snapshot is built. The cost of a search follows
 * the postings it reads: a word held by most of 1 000 000 records reads a million of them, 20 to
 * 60 ms, every time it is asked. Yet without a filter such a query's answer is fixed by the snapshot:
 * its total is the word's document count (with its forms and aliases), its first pages a ranking
 * that can be computed once. So the build (in its worker thread) answers the most frequent words
 * ahead, and a search for one of them without a filter reads its first pages from here.
 *
 * Answers are keyed by the word group the query reads as (the indexed words and their weights),
 * not by the text typed: "Permis", "permis" and a corrected "permsi" share one, and an answer is
 * used only for exactly the group it was computed for.
 *
 * A filter (a kind, the region, both) does not make such a query cheap: it still reads the whole
 * postings (`code` with `kind=lesson`: 82–106 ms at 1 000 000 records, every time). So a broad word's
 * answers under every filter are prepared too, all in the one pass over its postings that its
 * unfiltered answer takes (matchOneGroupByFilter), and keyed by the group and the filter.
 */
import type { TermGroup } from './match.js'

export type PreparedAnswersData = {
  /** Per answer, its group's key (`groupKey`). */
  keys: string[]
  /** Per answer, how many records match. */
  totals: Uint32Array
  /** Answer k's first documents, best first, are docs [start[k], start[k + 1]). */
  start: Uint32Array
  docs: Uint32Array
}

export type PrepareOptions = {
  /**
   * Words held by at least this many records are prepared, whatever the snapshot's size: the cost of
   * a search follows the postings it reads (below this, a word's search takes a few milliseconds).
   */
  minDocuments?: number
  /** The most frequent first, at most this many. */
  maxWords?: number
  /** How many first results each answer keeps: two pages of the largest page size (50). */
  depth?: number
}

export const PREPARE_DEFAULTS: Required<PrepareOptions> = { minDocuments: 200_000, maxWords: 256, depth: 100 }

/** The key of `group`'s answer under `filter` (filterKey), or without one. */
export const groupKey = (group: TermGroup, filter = ''): string =>
  filter === '' ? JSON.stringify(group) : `${JSON.stringify(group)}|${filter}`

/** A filter's part of an answer's key: its kind and its region; empty for none. */
export const filterKey = (kind: string | undefined, region: string | undefined): string =>
  kind === undefined && region === undefined ? '' : `${kind ?? ''}|${region ?? ''}`

export const NO_PREPARED_ANSWERS: PreparedAnswersData = {
  keys: [],
  totals: new Uint32Array(0),
  start: new Uint32Array(1),
  docs: new Uint32Array(0),
}

/** Prepared answers, collected one by one at build time. */
export class PreparedAnswersWriter {
  readonly #keys: string[] = []
  readonly #seen = new Set<string>()
  readonly #totals: number[] = []
  readonly #start: number[] = [0]
  readonly #docs: number[] = []

  has(key: string): boolean {
    return this.#seen.has(key)
  }

  add(key: string, total: number, docs: readonly number[]): void {
    this.#keys.push(key)
    this.#seen.add(key)
    this.#totals.push(total)
    this.#docs.push(...docs)
    this.#start.push(this.#docs.length)
  }

  done(): PreparedAnswersData {
    return {
      keys: this.#keys,
      totals: Uint32Array.from(this.#totals),
      start: Uint32Array.from(this.#start),
      docs: Uint32Array.from(this.#docs),
    }
  }
}

export class PreparedAnswers {
  readonly #data: PreparedAnswersData
  readonly #byKey: Map<string, number>

  constructor(data: PreparedAnswersData) {
    this.#data = data
    this.#byKey = new Map(data.keys.map((key, k) => [key, k]))
  }

  get size(): number {
    return this.#byKey.size
  }

  /** The answer for `group` under `filter` (filterKey; '' for none), when it was prepared and holds the page asked. */
  find(
    group: TermGroup,
    offset: number,
    limit: number,
    countOnly: boolean,
    filter = '',
  ): { total: number; docs: number[] } | undefined {
    if (this.#byKey.size === 0) return undefined
    const k = this.#byKey.get(groupKey(group, filter))
    if (k === undefined) return undefined
    const { totals, start, docs } = this.#data
    const total = totals[k]!
    if (countOnly) return { total, docs: [] }
    const kept = docs.subarray(start[k]!, start[k + 1]!)
    if (offset + limit > kept.length && kept.length < total) return undefined
    return { total, docs: Array.from(kept.subarray(offset, offset + limit)) }
  }
}

export function preparedTransferList(data: PreparedAnswersData): ArrayBuffer[] {
  return [data.totals.buffer, data.start.buffer, data.docs.buffer] as ArrayBuffer[]
}
