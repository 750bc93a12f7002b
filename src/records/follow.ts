/**
 * Keeps the served snapshot in step with its source: on every change, load the whole source again,
 * validate it, build a new index and swap it in. A bad update is refused (logged) and the good
 * snapshot stays; loads are serialised so an older load can never overwrite a newer one.
 */
import type { FastifyBaseLogger } from 'fastify'
import { RecordIndex } from '../search/record-index.js'
import type { LiveRecords } from './live-records.js'
import type { RecordSource } from './source.js'

/** Loads, validates and indexes; throws without touching `records` when the source is bad. */
export async function loadInto(source: RecordSource, records: LiveRecords): Promise<RecordIndex> {
  const index = new RecordIndex(await source.load())
  records.swap(index)
  return index
}

export type Follower = {
  /** Resolves when every reload started so far has finished (for tests and shutdown). */
  settled(): Promise<void>
  stop(): void
}

export function followSource(
  source: RecordSource,
  records: LiveRecords,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  onRefused: () => void = () => {},
): Follower {
  let chain: Promise<void> = Promise.resolve()
  const stop = source.watch?.(() => {
    chain = chain.then(async () => {
      try {
        const index = await loadInto(source, records)
        log.info({ origin: source.origin, records: index.size, version: index.version }, 'records reloaded')
      } catch (err) {
        onRefused()
        log.error({ origin: source.origin, problem: (err as Error).message }, 'records update refused; still serving the previous snapshot')
      }
    })
  })
  return { settled: () => chain, stop: () => stop?.() }
}
