/**
 * The change feed a service serves: the kept history of its source's publications, tied to the
 * snapshot it describes. A records file's history is kept here, in memory, from the snapshots this
 * process loads; PostgreSQL's is read from the database after each load, so that every replica
 * answers alike (see docs/api.md, "Changes").
 */
import type { RecordIndex } from '../search/record-index.js'
import type { LiveRecords } from '../snapshots/live-records.js'
import type { ChangeHistory, PublicationChanges } from './change-log.js'
import { diffSnapshots, publicationIdOf, snapshotChecksum } from './snapshot-changes.js'

/** Publications kept by default (the newest one and the ones before it, the oldest being the base). */
export const DEFAULT_KEPT_PUBLICATIONS = 100

export class ChangeFeed {
  #served: { index: RecordIndex; history: ChangeHistory } | undefined

  /** The history describing `index`, or undefined while the one for this snapshot is not known yet. */
  historyFor(index: RecordIndex): ChangeHistory | undefined {
    return this.#served?.index === index ? this.#served.history : undefined
  }

  /** Serves `publications` (oldest first, the last being `index`'s publication) as `index`'s history. */
  set(index: RecordIndex, publications: readonly PublicationChanges[]): void {
    this.#served = {
      index,
      history: { publications, checksum: snapshotChecksum(index), records: index.size },
    }
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

  constructor(keep = DEFAULT_KEPT_PUBLICATIONS) {
    if (!Number.isInteger(keep) || keep < 1)
      throw new Error(`changes: keep must be a positive integer (got ${keep})`)
    this.#keep = keep
  }

  /** Records the swap to `next` and returns the history as it now is. */
  add(next: RecordIndex): readonly PublicationChanges[] {
    const previous = this.#last
    this.#last = next
    const publication = publicationIdOf(next)
    // Loaded again unchanged (a touched file): the same publication, nothing to add.
    if (previous !== undefined && publicationIdOf(previous) === publication) return this.#publications
    const changes = previous === undefined ? [] : diffSnapshots(previous, next)
    this.#publications = [
      ...this.#publications,
      { publication, publishedAt: next.publishedAt, changes },
    ].slice(-this.#keep)
    return this.#publications
  }
}

/**
 * A feed whose history is kept in memory from the swaps of `records` (a records file, or an app
 * built in a test), starting with the snapshot served now if any.
 */
export function feedFromSwaps(records: LiveRecords, keep = DEFAULT_KEPT_PUBLICATIONS): ChangeFeed {
  const feed = new ChangeFeed()
  const history = new MemoryChangeHistory(keep)
  const follow = (index: RecordIndex) => feed.set(index, history.add(index))
  if (records.current !== undefined) follow(records.current)
  records.onSwap(follow)
  return feed
}
