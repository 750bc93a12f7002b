/**
 * Loading a snapshot: reading, validating and indexing every record of a source. The service does
 * it in a worker thread, so that the thread serving requests only swaps a finished snapshot in
 * (building 100 000 records on it used to leave /healthz unanswered for the whole build); tools and
 * tests may build in-process.
 */
import { Worker } from 'node:worker_threads'
import { SourceUnavailableError, type RecordSource } from '../records/source.js'
import { RecordIndex } from '../search/record-index.js'
import { SnapshotBuilder } from '../search/snapshot-builder.js'
import type { BuildReply, BuildRequest } from './build-worker.js'

/** Builds the snapshot of a source, or throws `records: …` (SourceUnavailableError when only for now). */
export type SnapshotLoader = (source: RecordSource) => Promise<RecordIndex>

// From the compiled package the worker is a .js file; from the sources (tests, `npm run dev`) a .ts
// file, which the worker loads through tsx's loader (Node 20 does not pass `--import` hooks to workers).
// No execArgv of the parent's: a process started as `node -e …` or with `--input-type` would pass
// flags a worker refuses.
const compiled = import.meta.url.endsWith('.js')
const newWorker = (): Worker =>
  compiled
    ? new Worker(new URL('./build-worker.js', import.meta.url), { execArgv: [] })
    : new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./build-worker.ts', import.meta.url).href)}) })`,
        { eval: true, execArgv: [] },
      )

/** Builds in a worker thread; the source is told what the worker's read saw (file version, publication). */
export const loadInWorker: SnapshotLoader = async (source) => {
  const worker = newWorker()
  try {
    const reply = await new Promise<BuildReply>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`records: ${source.origin}: the snapshot build stopped before it finished (exit code ${code})`)))
      const request: BuildRequest = { spec: source.spec(), origin: source.origin }
      worker.postMessage(request)
    })
    source.noteRead?.(reply.info)
    if (!reply.ok) throw reply.unavailable ? new SourceUnavailableError(reply.message) : new Error(reply.message)
    return new RecordIndex(reply.data)
  } finally {
    await worker.terminate()
  }
}

/** Builds on the calling thread: for small sets (tools, tests) where a thread costs more than it saves. */
export const loadInProcess: SnapshotLoader = async (source) => {
  const builder = new SnapshotBuilder(source.origin)
  const info = await source.read((value, where) => builder.add(value, where))
  return new RecordIndex(builder.finish(info))
}
