/**
 * Where the service's records come from, and how it follows them: a records file (the embedded
 * default; its first load must succeed, so a bad file stops the start) or PostgreSQL's published
 * snapshots (DATABASE_URL; the service starts even before the first publication and answers
 * `unavailable` until a snapshot is loaded). Either way, later changes are loaded, validated and
 * swapped in whole, and the metrics follow the served snapshot and the source's connection.
 */
import type { Config } from '../config.js'
import type { Log } from '../core/log.js'
import { FileRecordSource } from '../core/records/file-source.js'
import { PostgresRecordSource } from '../core/records/postgres-source.js'
import { followSource, loadInto, warnIfEmpty } from '../core/snapshots/follow.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import type { Metrics } from './metrics.js'

export type FollowedRecords = {
  records: LiveRecords
  origin: string
  /** Stops following and releases the source (file watcher, database connections). */
  close(): Promise<void>
}

export async function openRecords(config: Config['records'], deps: { log: Log; metrics: Metrics }): Promise<FollowedRecords> {
  const { log, metrics } = deps
  const records = new LiveRecords()
  records.onSwap((index) => {
    metrics.records.set(index.size)
    metrics.serving({ source: config.databaseUrl === undefined ? 'file' : 'postgres', publishedAt: index.publishedAt, id: index.snapshot?.id })
  })
  if (config.databaseUrl === undefined) {
    const source = new FileRecordSource(config.file)
    metrics.sourceConnected.set(1)
    try {
      const first = await loadInto(source, records)
      log.info({ origin: source.origin, records: first.size, version: first.version }, 'records loaded')
      warnIfEmpty(first, source.origin, log)
    } catch (err) {
      await source.close()
      throw err
    }
    const follower = followSource(source, records, { log, onRefused: () => metrics.recordsUpdatesRefused.inc() })
    return { records, origin: source.origin, close: () => follower.stop().finally(() => source.close()) }
  }
  const source = new PostgresRecordSource(config.databaseUrl, { log })
  metrics.sourceConnected.set(0)
  source.onConnection((connected) => metrics.sourceConnected.set(connected ? 1 : 0))
  log.info({ origin: source.origin }, 'records from PostgreSQL: not ready until the current snapshot is loaded')
  const follower = followSource(source, records, { log, onRefused: () => metrics.recordsUpdatesRefused.inc() })
  return { records, origin: source.origin, close: () => follower.stop().finally(() => source.close()) }
}
