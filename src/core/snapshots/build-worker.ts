/**
 * A worker thread that builds one snapshot: it opens the source from its description, streams and
 * validates every record into a SnapshotBuilder, and sends the result back with its buffers
 * transferred, not copied. The serving thread meanwhile goes on answering from the old snapshot.
 *
 * Given several threads and a source that can be read in parts (an NDJSON file), it builds the first
 * part itself while one more thread per part builds the others (a "part" request), then absorbs
 * their results in order: the records, their numbering and every message are those of one read.
 */
import { parentPort } from 'node:worker_threads'
import { SourceUnavailableError, type ReadInfo, type RecordSource, type SourceSpec } from '../records/source.js'
import type { PreviousRecords } from '../search/previous-records.js'
import { withPreparedAnswers } from '../search/record-index.js'
import { SnapshotBuilder, partTransferList, type SnapshotPart } from '../search/snapshot-builder.js'
import { transferList, type SnapshotData } from '../search/snapshot-data.js'
import { ask, startBuildThread } from './build-thread.js'
import { openSource } from './open-source.js'

/**
 * `threads`: how many threads the build may use in all (this one included); `minPartBytes`: the least
 * a thread reads; `previous`: the snapshot being served, on a reload (its arrays in shared memory).
 */
export type BuildRequest =
  | { role: 'snapshot'; spec: SourceSpec; origin: string; threads: number; minPartBytes?: number; previous?: PreviousRecords }
  | { role: 'part'; spec: SourceSpec; origin: string; previous?: PreviousRecords }
type Failure = { ok: false; message: string; unavailable: boolean; info: ReadInfo }
export type BuildReply = { ok: true; data: SnapshotData; info: ReadInfo } | Failure
type PartReply = { ok: true; part: SnapshotPart; info: ReadInfo } | Failure

const failure = (err: unknown, source: RecordSource): Failure => ({
  ok: false,
  message: (err as Error).message,
  unavailable: err instanceof SourceUnavailableError,
  info: source.partialRead?.() ?? {},
})

async function buildSnapshot(source: RecordSource, { origin, threads, minPartBytes, previous }: Extract<BuildRequest, { role: 'snapshot' }>): Promise<{ data: SnapshotData; info: ReadInfo }> {
  const parts = threads > 1 ? await source.split?.(threads, minPartBytes) : undefined
  const builder = new SnapshotBuilder(origin, { previous })
  if (parts === undefined) {
    const info = await source.read((value, where) => builder.add(value, where))
    return { data: withPreparedAnswers(builder.finish(info)), info }
  }
  const others = parts.slice(1).map(async (spec) => {
    const worker = startBuildThread(previous !== undefined)
    try {
      return await ask<PartReply>(worker, { role: 'part', spec, origin, previous } satisfies BuildRequest, origin)
    } finally {
      await worker.terminate()
    }
  })
  const first = await openSource(parts[0]!)
  let info: ReadInfo
  try {
    info = await first.read((value, where) => builder.add(value, where))
  } catch (err) {
    await Promise.allSettled(others)
    throw err
  } finally {
    await first.close().catch(() => undefined)
  }
  builder.seal() // its share of the sorting and encoding, while the other threads still read
  // In source order: the first part that failed is what a read of the whole would have reported.
  for (const reply of await Promise.all(others)) {
    if (!reply.ok) throw reply.unavailable ? new SourceUnavailableError(reply.message) : new Error(reply.message)
    if (reply.info.version !== info.version) throw new SourceUnavailableError(`records: ${origin}: the file changed while it was read; nothing loaded`)
    builder.absorb(reply.part)
  }
  return { data: withPreparedAnswers(builder.finish(info)), info }
}

const port = parentPort!
port.once('message', (request: BuildRequest) => {
  void (async () => {
    const source = await openSource(request.spec)
    try {
      if (request.role === 'part') {
        const builder = new SnapshotBuilder(request.origin, { previous: request.previous })
        const info = await source.read((value, where) => builder.add(value, where))
        const part = builder.part()
        port.postMessage({ ok: true, part, info } satisfies PartReply, partTransferList(part))
      } else {
        const { data, info } = await buildSnapshot(source, request)
        port.postMessage({ ok: true, data, info } satisfies BuildReply, transferList(data))
      }
    } catch (err) {
      port.postMessage(failure(err, source))
    } finally {
      await source.close().catch(() => undefined)
    }
  })()
})
