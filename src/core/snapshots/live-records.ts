/**
 * The snapshot being served. Readers take `current` once per request and use only that object, so a
 * reload (which swaps in a whole new index) never shows a request half of each.
 */
import type { MatchMode } from '../search/match-mode.js'
import type { RecordIndex } from '../search/record-index.js'

/** Told of a search with q: its match mode, how long it ran (seconds) and how many records matched. */
export type SearchObserver = (match: MatchMode, seconds: number, total: number) => void

export class LiveRecords {
  #current: RecordIndex | undefined
  readonly #listeners = new Set<(index: RecordIndex) => void>()
  /** Told of every search with q run over the served snapshots, by any reader (the metrics; set by the composition root). */
  searchObserver: SearchObserver | undefined

  /** The served snapshot, or undefined before the first successful load. */
  get current(): RecordIndex | undefined {
    return this.#current
  }

  swap(next: RecordIndex): void {
    this.#current = next
    for (const listener of this.#listeners) listener(next)
  }

  /** Calls `listener` after every swap (to rebuild caches derived from a snapshot). */
  onSwap(listener: (index: RecordIndex) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
