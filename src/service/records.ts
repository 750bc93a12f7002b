/**
 * Where the service's records come from, and how it follows them: a records file (the embedded
 * default; its first load must succeed, so a bad file stops the start) or PostgreSQL's published
 * snapshots (DATABASE_URL; the service starts even before the first publication and answers
 * `unavailable` until a snapshot is loaded). Either way, later changes are loaded, validated and
 * swapped in whole, and the metrics follow the served snapshot and the source's connection.
 */
import type { Config } from '../config.js'
import { ChangeFeed, DEFAULT_KEPT_PUBLICATIONS, feedFromSwaps } from '../core/changes/change-feed.js'
import type { Log } from '../core/log.js'
import { FileRecordSource } from '../core/records/file-source.js'
import { followSource, loadInto, warnIfEmpty, type Follower } from '../core/snapshots/follow.js'
import { loadSnapshot, type SnapshotLoader } from '../core/snapshots/load-snapshot.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import type { RecordIndex } from '../core/search/record-index.js'
import type { Metrics } from './metrics.js'

export type FollowedRecords = {
  records: LiveRecords
  /** The change feed of the served snapshot: kept in memory for a file, read from PostgreSQL otherwise. */
  changes: ChangeFeed
  origin: string
  /**
   * Settles when the first load is done: from a file it must succeed (it rejects with the reason a
   * bad file stops the start); from PostgreSQL, which may have no snapshot yet, it resolves at once.
   */
  loaded: Promise<void>
  /** Stops following and releases the source (file watcher, database connections), once the first load has settled. */
  close(): Promise<void>
}

/**
 * Starts reading the records and returns as soon as it has: the caller sets up the rest while the
 * first load runs in its worker. PostgreSQL's modules are loaded only to read PostgreSQL.
 */
export async function openRecords(
  config: Config['records'],
  deps: { log: Log; metrics: Metrics; load?: SnapshotLoader },
): Promise<FollowedRecords> {
  const { log, metrics } = deps
  const records = new LiveRecords()
  records.searchObserver = (match, seconds, total) => metrics.searched(match, seconds, total)
  const sourceLabel = config.databaseUrl === undefined ? 'file' : 'postgres'
  // Every load, the first and each reload, is timed (load, validation and index build). The default
  // is followSource's own: a small source built in process, not in a thread it would wait for.
  const build = deps.load ?? loadSnapshot
  const load: SnapshotLoader = async (source, options) => {
    const startedAt = performance.now()
    const took = () => (performance.now() - startedAt) / 1000
    try {
      const index = await build(source, options)
      const seconds = took()
      metrics.snapshotLoads.observe({ source: sourceLabel, outcome: 'loaded' }, seconds)
      metrics.snapshotLastLoad.set({ source: sourceLabel }, seconds)
      return index
    } catch (err) {
      metrics.snapshotLoads.observe({ source: sourceLabel, outcome: 'failed' }, took())
      throw err
    }
  }
  records.onSwap((index) => {
    metrics.records.set(index.size)
    metrics.serving({
      source: config.databaseUrl === undefined ? 'file' : 'postgres',
      publishedAt: index.publishedAt,
      id: index.snapshot?.id,
    })
  })
  if (config.databaseUrl === undefined) {
    const source = new FileRecordSource(config.file)
    const changes = feedFromSwaps(records)
    metrics.sourceConnected.set(1)
    let follower: Follower | undefined
    const loaded = loadInto(source, records, load).then((first) => {
      log.info({ origin: source.origin, records: first.size, version: first.version }, 'records loaded')
      warnIfEmpty(first, source.origin, log)
      follower = followSource(source, records, {
        log,
        onRefused: () => metrics.recordsUpdatesRefused.inc(),
        load,
      })
    })
    loaded.catch(() => undefined) // the caller awaits it; until then a failed load is not unhandled
    const close = async () => {
      await loaded.catch(() => undefined)
      await follower?.stop()
      await source.close()
    }
    return { records, changes, origin: source.origin, loaded, close }
  }
  const { PostgresRecordSource } = await import('../core/records/postgres-source.js')
  const source = new PostgresRecordSource(config.databaseUrl, { log })
  metrics.sourceConnected.set(0)
  source.onConnection((connected) => metrics.sourceConnected.set(connected ? 1 : 0))
  log.info(
    { origin: source.origin },
    'records from PostgreSQL: not ready until the current snapshot is loaded',
  )
  const changes = new ChangeFeed()
  let closed = false
  // Read after each swap; until it is, the feed answers 503 (the client retries). A failed read is
  // tried again while that snapshot is served.
  const readHistory = (index: RecordIndex, attempt = 0): void => {
    const publication = index.snapshot?.publication
    if (publication === undefined || closed || records.current !== index) return
    source.changeHistory(publication, DEFAULT_KEPT_PUBLICATIONS).then(
      (history) => {
        // A later snapshot's history may have been read first: only the served one's is kept.
        if (records.current === index) changes.set(index, history)
      },
      (err: unknown) => {
        log.warn(
          { origin: source.origin, publication, problem: (err as Error).message },
          'change feed history not read; trying again',
        )
        setTimeout(() => readHistory(index, attempt + 1), Math.min(30_000, 1_000 * 2 ** attempt)).unref()
      },
    )
  }
  records.onSwap((index) => readHistory(index))
  const follower = followSource(source, records, {
    log,
    onRefused: () => metrics.recordsUpdatesRefused.inc(),
    load,
  })
  return {
    records,
    changes,
    origin: source.origin,
    loaded: Promise.resolve(),
    close: () => {
      closed = true
      return follower.stop().finally(() => source.close())
    },
  }
}
