/**
 * The snapshot being served. Readers take `current` once per request and use only that object, so a
 * reload (which swaps in a whole new index) never shows a request half of each. Before a snapshot
 * is swapped in, its preparers run (`prepareWith`): the adapters make there, off the serving thread,
 * the bodies a first request would otherwise build (the sitemap, the download's), so that no
 * request after a reload pays for them.
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
  readonly #preparers = new Set<(index: RecordIndex) => Promise<unknown>>()

  /** The served snapshot, or undefined before the first successful load. */
  get current(): RecordIndex | undefined {
    return this.#current
  }

  swap(next: RecordIndex): void {
    this.#current = next
    for (const listener of this.#listeners) listener(next)
  }

  /**
   * Runs `preparer` on every snapshot before it is swapped in, and on the one served now if any; it
   * must not throw (a failure is the preparer's to report; the snapshot is swapped in anyway).
   * Returns a function that stops it.
   */
  prepareWith(preparer: (index: RecordIndex) => Promise<unknown>): () => void {
    this.#preparers.add(preparer)
    if (this.#current !== undefined) void preparer(this.#current).catch(() => undefined)
    return () => this.#preparers.delete(preparer)
  }

  /** Runs every preparer on `next`; resolves when all have settled. */
  async prepare(next: RecordIndex): Promise<void> {
    await Promise.allSettled([...this.#preparers].map((prepare) => prepare(next)))
  }

  /** Calls `listener` after every swap (to rebuild caches derived from a snapshot). */
  onSwap(listener: (index: RecordIndex) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
