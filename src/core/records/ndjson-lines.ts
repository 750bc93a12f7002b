/**
 * The lines of a file, or of a byte range of it, split as readline splits them (a line ends at "\n",
 * "\r\n" or a lone "\r"), so that line numbers agree with ndjson-parts.ts's count and with every
 * message that names a line.
 *
 * Written by hand rather than with readline: readline decodes every chunk into a string, splits it
 * with a regular expression and hands each line through an event and an async iterator, which was
 * about a tenth of a snapshot build's time. Here the bytes are read into one reused buffer, line ends
 * are found with `indexOf`, and each line is decoded once, whole (so a character is never cut
 * between two reads).
 */
import { open } from 'node:fs/promises'
import type { ByteRange } from './ndjson-parts.js'

const LF = 0x0a
const CR = 0x0d
const CHUNK_BYTES = 1 << 20

/**
 * Takes a line, decoded, and where its bytes are: `bytes[start, end)`, valid only during the call
 * (the buffer is reused for the next read).
 */
export type LineConsumer = (line: string, bytes: Buffer, start: number, end: number) => void

/** Calls `onLine` with each line of `path` (within `range`), without its line break; throws what `onLine` throws. */
export async function forEachLine(
  path: string,
  range: ByteRange | undefined,
  onLine: LineConsumer,
  chunkBytes = CHUNK_BYTES,
): Promise<void> {
  const end = range?.end ?? Infinity
  let position = range?.start ?? 0
  let buffer: Buffer = Buffer.allocUnsafe(chunkBytes)
  let filled = 0 // buffer[0, filled) holds bytes read and not yet handed out
  const file = await open(path)
  try {
    for (;;) {
      if (filled === buffer.length) buffer = grown(buffer, filled) // a line longer than the buffer
      const { bytesRead } = await file.read(
        buffer,
        filled,
        Math.min(buffer.length - filled, end - position),
        position,
      )
      position += bytesRead
      filled += bytesRead
      const last = bytesRead === 0 || position >= end
      const data = buffer.subarray(0, filled)
      let lineStart = 0
      let lf = data.indexOf(LF)
      let cr = data.indexOf(CR)
      for (;;) {
        if (lf !== -1 && lf < lineStart) lf = data.indexOf(LF, lineStart)
        if (cr !== -1 && cr < lineStart) cr = data.indexOf(CR, lineStart)
        const lineEnd = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr
        if (lineEnd === -1) break
        let breakBytes = 1
        if (lineEnd === cr) {
          if (cr === filled - 1 && !last) break // "\r" as the last byte read: whether "\n" follows is in the next read
          if (data[cr + 1] === LF) breakBytes = 2
        }
        onLine(data.toString('utf8', lineStart, lineEnd), data, lineStart, lineEnd)
        lineStart = lineEnd + breakBytes
      }
      if (last) {
        if (lineStart < filled) onLine(data.toString('utf8', lineStart, filled), data, lineStart, filled) // the last line, without a line break
        return
      }
      buffer.copy(buffer, 0, lineStart, filled)
      filled -= lineStart
    }
  } finally {
    await file.close()
  }
}

function grown(buffer: Buffer, filled: number): Buffer {
  const next = Buffer.allocUnsafe(buffer.length * 2)
  buffer.copy(next, 0, 0, filled)
  return next
}
