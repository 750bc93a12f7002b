/**
 * A worker thread that builds one snapshot: it opens the source from its description, streams and
 * validates every record into a SnapshotBuilder, and sends the result back with its buffers
 * transferred, not copied. The serving thread meanwhile goes on answering from the old snapshot.
 */
import { parentPort } from 'node:worker_threads'
import { SourceUnavailableError, type SourceSpec } from '../records/source.js'
import { SnapshotBuilder } from '../search/snapshot-builder.js'
import { transferList } from '../search/snapshot-data.js'
import { openSource } from './open-source.js'

export type BuildRequest = { spec: SourceSpec; origin: string }
export type BuildReply =
  | { ok: true; data: import('../search/snapshot-data.js').SnapshotData; info: import('../records/source.js').ReadInfo }
  | { ok: false; message: string; unavailable: boolean; info: import('../records/source.js').ReadInfo }

const port = parentPort!
port.once('message', (request: BuildRequest) => {
  const source = openSource(request.spec)
  const builder = new SnapshotBuilder(request.origin)
  void (async () => {
    try {
      const info = await source.read((value, where) => builder.add(value, where))
      const data = builder.finish(info)
      const reply: BuildReply = { ok: true, data, info }
      port.postMessage(reply, transferList(data))
    } catch (err) {
      const reply: BuildReply = { ok: false, message: (err as Error).message, unavailable: err instanceof SourceUnavailableError, info: source.partialRead?.() ?? {} }
      port.postMessage(reply)
    } finally {
      await source.close().catch(() => undefined)
    }
  })()
})
