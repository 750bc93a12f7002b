/**
 * A worker thread that builds one snapshot, or one part of it: it opens the source from its
 * description, streams and validates every record into a SnapshotBuilder, and sends the result back
 * with its buffers transferred, not copied. The serving thread meanwhile goes on answering from the
 * old snapshot.
 *
 * Given a source read in parts (an NDJSON file, cut by the serving thread: load-snapshot.ts), the
 * thread building the snapshot reads the first part while one thread per part reads the others (a
 * "part" request, answered on a port of the snapshot thread's), then absorbs their results in
 * order: the records, their numbering and every message are those of one read.
 */
import { parentPort, type MessagePort } from 'node:worker_threads'
import {
  SourceUnavailableError,
  type ReadInfo,
  type RecordSource,
  type SourceSpec,
} from '../records/source.js'
import type { PreviousRecords } from '../search/previous-records.js'
import { withPreparedAnswers } from '../search/record-index.js'
import { SnapshotBuilder, partTransferList, type SnapshotPart } from '../search/snapshot-builder.js'
import { transferList, type SnapshotData } from '../search/snapshot-data.js'
import { openSource } from './open-source.js'

/**
 * `spec`: what this thread reads (the whole source, or its first part); `parts`: the ports on which
 * the threads reading the later parts answer, in source order; `previous`: the snapshot being
 * served, on a reload (its arrays in shared memory). A part's thread answers on `answerTo`.
 */
export type BuildRequest =
  | { role: 'snapshot'; spec: SourceSpec; origin: string; parts: MessagePort[]; previous?: PreviousRecords }
  | { role: 'part'; spec: SourceSpec; origin: string; answerTo: MessagePort; previous?: PreviousRecords }
type Failure = { ok: false; message: string; unavailable: boolean; info: ReadInfo }
export type BuildReply = { ok: true; data: SnapshotData; info: ReadInfo } | Failure
type PartReply = { ok: true; part: SnapshotPart; info: ReadInfo } | Failure

const failure = (err: unknown, source: RecordSource): Failure => ({
  ok: false,
  message: (err as Error).message,
  unavailable: err instanceof SourceUnavailableError,
  info: source.partialRead?.() ?? {},
})

/** The first message on `port`. */
const answerOn = <T>(port: MessagePort) => new Promise<T>((resolve) => port.once('message', resolve))

async function buildSnapshot(
  source: RecordSource,
  { origin, parts, previous }: Extract<BuildRequest, { role: 'snapshot' }>,
): Promise<{ data: SnapshotData; info: ReadInfo }> {
  // Listening at once: a part may be done before this thread's own read.
  const others = parts.map((port) => answerOn<PartReply>(port))
  const builder = new SnapshotBuilder(origin, { previous })
  const info = await source.read((value, where, text) => builder.add(value, where, text))
  if (parts.length === 0) return { data: withPreparedAnswers(builder.finish(info)), info }
  builder.seal() // its share of the sorting and encoding, while the other threads still read
  // In source order: the first part that failed is what a read of the whole would have reported.
  for (const reply of await Promise.all(others)) {
    if (!reply.ok)
      throw reply.unavailable ? new SourceUnavailableError(reply.message) : new Error(reply.message)
    if (reply.info.version !== info.version)
      throw new SourceUnavailableError(
        `records: ${origin}: the file changed while it was read; nothing loaded`,
      )
    builder.absorb(reply.part)
  }
  for (const port of parts) port.close()
  return { data: withPreparedAnswers(builder.finish(info)), info }
}

const port = parentPort!
port.once('message', (request: BuildRequest) => {
  void (async () => {
    const source = await openSource(request.spec)
    try {
      if (request.role === 'part') {
        const builder = new SnapshotBuilder(request.origin, { previous: request.previous })
        const info = await source.read((value, where, text) => builder.add(value, where, text))
        const part = builder.part()
        request.answerTo.postMessage({ ok: true, part, info } satisfies PartReply, partTransferList(part))
      } else {
        const { data, info } = await buildSnapshot(source, request)
        port.postMessage({ ok: true, data, info } satisfies BuildReply, transferList(data))
      }
    } catch (err) {
      ;(request.role === 'part' ? request.answerTo : port).postMessage(failure(err, source))
    } finally {
      if (request.role === 'part') request.answerTo.close()
      await source.close().catch(() => undefined)
    }
  })()
})
