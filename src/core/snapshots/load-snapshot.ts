/**
 * Loading a snapshot: reading, validating and indexing every record of a source. The service does
 * it in a worker thread, so that the thread serving requests only swaps a finished snapshot in
 * (building 100 000 records on it used to leave /healthz unanswered for the whole build); tools and
 * tests may build in-process.
 */
import { availableParallelism } from 'node:os'
import { SourceUnavailableError, type RecordSource } from '../records/source.js'
import { RecordIndex, withPreparedAnswers } from '../search/record-index.js'
import { SnapshotBuilder } from '../search/snapshot-builder.js'
import { ask, startBuildThread } from './build-thread.js'
import type { BuildReply, BuildRequest } from './build-worker.js'

/**
 * `serving`: the snapshot being served, if any. The first build has nothing else to do and uses
 * every core; a reload leaves one to the thread that serves requests meanwhile, and keeps the records
 * that did not change where the served snapshot holds them (previous-records.ts). `threads` and
 * `minPartBytes` override the number of threads and the least a thread reads (ndjson-parts.ts; tests use both).
 */
export type LoadOptions = { serving?: RecordIndex; threads?: number; minPartBytes?: number }

/** Builds the snapshot of a source, or throws `records: …` (SourceUnavailableError when only for now). */
export type SnapshotLoader = (source: RecordSource, options?: LoadOptions) => Promise<RecordIndex>

/** Threads a build may use: every core for the first, all but one for a reload (at least one). */
export function buildThreads({ serving }: LoadOptions = {}, cores = availableParallelism()): number {
  return Math.max(1, serving !== undefined ? cores - 1 : cores)
}

/** Builds in a worker thread; the source is told what the worker's read saw (file version, publication). */
export const loadInWorker: SnapshotLoader = async (source, options) => {
  const worker = startBuildThread(options?.serving !== undefined)
  try {
    const threads = options?.threads ?? buildThreads(options)
    const serving = options?.serving
    const request: BuildRequest = { role: 'snapshot', spec: source.spec(), origin: source.origin, threads, minPartBytes: options?.minPartBytes, previous: serving?.previousRecords() }
    const reply = await ask<BuildReply>(worker, request, source.origin)
    source.noteRead?.(reply.info)
    if (!reply.ok) throw reply.unavailable ? new SourceUnavailableError(reply.message) : new Error(reply.message)
    return new RecordIndex(reply.data, { previous: serving })
  } finally {
    await worker.terminate()
  }
}

/** Builds on the calling thread: for small sets (tools, tests) where a thread costs more than it saves. */
export const loadInProcess: SnapshotLoader = async (source, options) => {
  const serving = options?.serving
  const builder = new SnapshotBuilder(source.origin, { previous: serving?.previousRecords() })
  const info = await source.read((value, where) => builder.add(value, where))
  return new RecordIndex(withPreparedAnswers(builder.finish(info)), { previous: serving })
}
