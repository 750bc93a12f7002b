/**
 * Keeps the served snapshot in step with its source: on a change, load the whole source again,
 * validate it, build a new index and swap it in. A bad update is refused (logged) and the good
 * snapshot stays. Loads never overlap, and changes signalled while a load runs are coalesced into
 * one more load after it: a burst of change events during a long load costs one reload, not one each,
 * and none when the load that ran already read what they signalled (`RecordSource.isBehind`).
 */
import type { Log } from '../log.js'
import { SourceUnavailableError, type RecordSource } from '../records/source.js'
import type { RecordIndex } from '../search/record-index.js'
import type { LiveRecords } from './live-records.js'
import { loadSnapshot, type SnapshotLoader } from './load-snapshot.js'

/** Loads, validates and indexes (in worker threads unless the source is small: loadSnapshot); throws without touching `records` when the source is bad. */
export async function loadInto(
  source: RecordSource,
  records: LiveRecords,
  load: SnapshotLoader = loadSnapshot,
): Promise<RecordIndex> {
  const index = await load(source, { serving: records.current })
  await records.prepare(index)
  records.swap(index)
  return index
}

/** Empty is valid (a publisher may withdraw everything) but rarely meant: say so, at start and on every reload. */
export function warnIfEmpty(index: RecordIndex, origin: string, log: Log): void {
  if (index.size === 0)
    log.warn(
      { origin, records: 0 },
      'the records source holds no records; the service answers with an empty catalogue',
    )
}

export type Follower = {
  /** Resolves when no reload is running or pending (for tests and shutdown). */
  settled(): Promise<void>
  /** Stops watching and waits for a reload in progress to finish; nothing is swapped in after it resolves. */
  stop(): Promise<void>
}

export type FollowOptions = {
  log: Log
  /** Called when an update is refused (to count it in metrics). */
  onRefused?: () => void
  /** How a snapshot is built: loadSnapshot by default (worker threads unless the source is small). */
  load?: SnapshotLoader
}

export function followSource(
  source: RecordSource,
  records: LiveRecords,
  { log, onRefused, load = loadSnapshot }: FollowOptions,
): Follower {
  let running: Promise<void> | undefined
  let pending = false
  let stopped = false

  const reload = async (): Promise<void> => {
    do {
      pending = false
      try {
        const index = await load(source, { serving: records.current })
        if (stopped) return
        await records.prepare(index)
        if (stopped) return
        records.swap(index)
        log.info(
          {
            origin: source.origin,
            records: index.size,
            version: index.version,
            snapshot: index.snapshot?.id,
          },
          'records reloaded',
        )
        warnIfEmpty(index, source.origin, log)
      } catch (err) {
        // Unavailable is not refused: nothing was wrong with the records, and the source will signal again.
        if (err instanceof SourceUnavailableError) {
          log.warn(
            { origin: source.origin, problem: err.message },
            'records source unavailable; still serving the previous snapshot',
          )
        } else {
          onRefused?.()
          log.error(
            { origin: source.origin, problem: (err as Error).message },
            'records update refused; still serving the previous snapshot',
          )
        }
      }
    } while (pending && !stopped && (source.isBehind?.() ?? true))
  }

  const onChange = () => {
    if (stopped) return
    if (running !== undefined) {
      pending = true
      return
    }
    running = reload().finally(() => (running = undefined))
  }
  const unwatch = source.watch?.(onChange)

  return {
    settled: async () => {
      while (running !== undefined) await running
    },
    stop: async () => {
      stopped = true
      unwatch?.()
      await running
    },
  }
}
