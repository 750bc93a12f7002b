/**
 * Loading a snapshot: reading, validating and indexing every record of a source. The service does
 * it in a worker thread, so that the thread serving requests only swaps a finished snapshot in
 * (building 100 000 records on it would leave /healthz unanswered for the whole build); tools and
 * tests may build in-process.
 */
import { MessageChannel } from 'node:worker_threads'
import { SourceUnavailableError, type RecordSource } from '../records/source.js'
import { RecordIndex, withPreparedAnswers } from '../search/record-index.js'
import { SnapshotBuilder } from '../search/snapshot-builder.js'
import { ask, buildThreads, buildsInProcess, failureOf, startBuildThread } from './build-thread.js'
import type { BuildReply, BuildRequest } from './build-worker.js'

/**
 * `serving`: the snapshot being served, if any. The first build has nothing else to do and uses
 * every core; a reload leaves one to the thread that serves requests meanwhile, and keeps the records
 * that did not change where the served snapshot holds them (previous-records.ts). `threads` and
 * `minPartBytes` override the number of threads and the least a thread reads (ndjson-parts.ts; tests use both).
 */
type LoadOptions = { serving?: RecordIndex; threads?: number; minPartBytes?: number }

/** Builds the snapshot of a source, or throws `records: …` (SourceUnavailableError when only for now). */
export type SnapshotLoader = (source: RecordSource, options?: LoadOptions) => Promise<RecordIndex>

/**
 * Builds in worker threads; the source is told what the build's read saw (file version, publication).
 * A source that can be read in parts (an NDJSON file) is cut here, and each part's thread starts
 * with the first one's, all loading their modules at once: the snapshot's thread reads the first part
 * and absorbs the others, which answer it directly on ports of its own (this thread copies nothing).
 */
export const loadInWorker: SnapshotLoader = async (source, options) => {
  const serving = options?.serving
  const threads = options?.threads ?? buildThreads({ beside: serving !== undefined })
  // Started before the source is cut, so that they load while it is; those the cut leaves idle stop.
  const workers = Array.from({ length: threads }, () => startBuildThread(serving !== undefined))
  try {
    const parts = threads > 1 ? await source.split?.(threads, options?.minPartBytes) : undefined
    for (const idle of workers.splice(parts?.length ?? 1)) void idle.terminate()
    const previous = serving?.previousRecords()
    const channels = workers.slice(1).map(() => new MessageChannel())
    channels.forEach(({ port1 }, i) => {
      const request: BuildRequest = {
        role: 'part',
        spec: parts![i + 1]!,
        origin: source.origin,
        answerTo: port1,
        previous,
      }
      workers[i + 1]!.postMessage(request, [port1])
    })
    const ports = channels.map(({ port2 }) => port2)
    const request: BuildRequest = {
      role: 'snapshot',
      spec: parts?.[0] ?? source.spec(),
      origin: source.origin,
      parts: ports,
      previous,
    }
    // A part's thread that fails outside its read (it cannot load, it runs out of memory) fails the build.
    const reply = await Promise.race([
      ask<BuildReply>(workers[0]!, request, source.origin, ports),
      ...workers.slice(1).map((w) => failureOf(w, source.origin)),
    ])
    source.noteRead?.(reply.info)
    if (!reply.ok)
      throw reply.unavailable ? new SourceUnavailableError(reply.message) : new Error(reply.message)
    return new RecordIndex(reply.data, { previous: serving })
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

/** Builds on the calling thread: for small sets (tools, tests) where a thread costs more than it saves. */
export const loadInProcess: SnapshotLoader = async (source, options) => {
  const serving = options?.serving
  const builder = new SnapshotBuilder(source.origin, { previous: serving?.previousRecords() })
  const info = await source.read((value, where, text) => builder.add(value, where, text))
  return new RecordIndex(withPreparedAnswers(builder.finish(info)), { previous: serving })
}

/**
 * How the service builds a snapshot: on the calling thread when the source says it is small
 * (buildsInProcess: a worker would cost more than it saves), in worker threads otherwise.
 */
export const loadSnapshot: SnapshotLoader = async (source, options) => {
  const size = await source.sizeHint?.().catch(() => undefined)
  return buildsInProcess(size) ? loadInProcess(source, options) : loadInWorker(source, options)
}
