/**
 * Streams lines to a Writable with backpressure: lines are grouped into chunks of about `chunkBytes`
 * (one write per chunk rather than per line), and the writer waits for "drain" whenever the stream's
 * buffer is full. At most one chunk plus the stream's own buffer is in memory, whatever the count.
 */
import { once } from 'node:events'
import type { Writable } from 'node:stream'

/** Default chunk size: large enough to keep write calls few, small enough to stay far below memory limits. */
const DEFAULT_CHUNK_BYTES = 1 << 20

/** Writes every line, then ends the stream; resolves with the number of UTF-8 bytes written. */
export async function writeLines(
  lines: Iterable<string>,
  out: Writable,
  chunkBytes = DEFAULT_CHUNK_BYTES,
): Promise<number> {
  let chunk: string[] = []
  let chunkLength = 0
  let bytes = 0
  const flush = async () => {
    const text = chunk.join('')
    chunk = []
    chunkLength = 0
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, 'drain')
  }
  for (const line of lines) {
    chunk.push(line)
    chunkLength += line.length
    if (chunkLength >= chunkBytes) await flush()
  }
  if (chunk.length > 0) await flush()
  out.end()
  await once(out, 'finish')
  return bytes
}
