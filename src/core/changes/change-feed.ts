/**
 * The change feed a service serves: the kept history of its source's publications, tied to the
 * snapshot it describes. A records file's history is kept here, in memory, from the snapshots this
 * process loads; PostgreSQL's is read from the database after each load, so that every replica
 * answers alike (see docs/api.md, "Changes").
 */
import type { RecordIndex } from '../search/record-index.js'
import type { LiveRecords } from '../snapshots/live-records.js'
import type { ChangeHistory, PublicationChanges, RecordChange } from './change-log.js'
import { checksumNow, changesBetween, publicationIdOf, snapshotChecksum } from './snapshot-changes.js'

/** Publications kept by default (the newest one and the ones before it, the oldest being the base). */
export const DEFAULT_KEPT_PUBLICATIONS = 100

export class ChangeFeed {
  #served: { index: RecordIndex; history: ChangeHistory } | undefined
  #pending: RecordIndex | undefined

  /** The history describing `index`, or undefined while the one for this snapshot is not known yet. */
  historyFor(index: RecordIndex): ChangeHistory | undefined {
    return this.#served?.index === index ? this.#served.history : undefined
  }

  /**
   * Serves `publications` (oldest first, the last being `index`'s publication) as `index`'s history:
   * at once when its checksum is known without waiting, else once it is (the feed answers 503 until
   * then), unless another snapshot's history was set meanwhile.
   */
  set(index: RecordIndex, publications: readonly PublicationChanges[]): void {
    this.#pending = index
    const serve = (checksum: string) => {
      if (this.#pending === index)
        this.#served = { index, history: { publications, checksum, records: index.size } }
    }
    const now = checksumNow(index)
    if (now !== undefined) serve(now)
    else void snapshotChecksum(index).then(serve)
  }
}

/**
 * A history built from the snapshots one process swaps in (a records file): each reload's changes
 * against the snapshot it replaced, the last `keep` publications. It starts at the first load, so a
 * restart forgets what came before: a client then downloads again (410).
 */
export class MemoryChangeHistory {
  readonly #keep: number
  #publications: PublicationChanges[] = []
  #last: RecordIndex | undefined
  /** The slow swap still being read, if any: later swaps are recorded after it. */
  #busy: Promise<void> | undefined

  /** Changes read at once at most; more are read a slice at a time (a test sets 0 to take that path). */
  readonly #atOnce: number | undefined

  constructor(keep = DEFAULT_KEPT_PUBLICATIONS, atOnce?: number) {
    this.#atOnce = atOnce
    if (!Number.isInteger(keep) || keep < 1)
      throw new Error(`changes: keep must be a positive integer (got ${keep})`)
    this.#keep = keep
  }

  /**
   * Records the swap to `next` and gives the history as it then is: at once when the changes are few
   * (`changesBetween`) and no slower swap is still being read, else once they are read a slice at a time.
   * Swaps are recorded in the order they came, whatever each one costs.
   */
  add(next: RecordIndex): readonly PublicationChanges[] | Promise<readonly PublicationChanges[]> {
    const previous = this.#last
    this.#last = next
    const publication = publicationIdOf(next)
    const record = (changes: readonly RecordChange[] | undefined) => {
      // Loaded again unchanged (a touched file): the same publication, nothing to add.
      if (changes !== undefined)
        this.#publications = [
          ...this.#publications,
          { publication, publishedAt: next.publishedAt, changes },
        ].slice(-this.#keep)
      return this.#publications
    }
    const unchanged = previous !== undefined && publicationIdOf(previous) === publication
    const diff = unchanged
      ? undefined
      : previous === undefined
        ? []
        : changesBetween(previous, next, this.#atOnce)
    if (this.#busy === undefined && !(diff instanceof Promise)) return record(diff)
    const work = (this.#busy ?? Promise.resolve()).then(async () => record(await diff))
    const busy = work.then(() => undefined)
    this.#busy = busy
    void busy.then(() => {
      if (this.#busy === busy) this.#busy = undefined
    })
    return work
  }
}

/**
 * A feed whose history is kept in memory from the swaps of `records` (a records file, or an app
 * built in a test), starting with the snapshot served now if any.
 */
export function feedFromSwaps(records: LiveRecords, keep = DEFAULT_KEPT_PUBLICATIONS): ChangeFeed {
  const feed = new ChangeFeed()
  const history = new MemoryChangeHistory(keep)
  const follow = (index: RecordIndex) => {
    const added = history.add(index)
    if (added instanceof Promise) void added.then((publications) => feed.set(index, publications))
    else feed.set(index, added)
  }
  if (records.current !== undefined) follow(records.current)
  records.onSwap(follow)
  return feed
}
