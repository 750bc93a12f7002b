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

/** A line longer than the reader takes: `lineIndex` counts the lines before it in the range read. */
export class LineTooLongError extends Error {
  constructor(
    readonly lineIndex: number,
    readonly maxBytes: number,
  ) {
    super(`a line longer than ${maxBytes} bytes`)
  }
}

/**
 * Calls `onLine` with each line of `path` (within `range`), without its line break; throws what
 * `onLine` throws, and LineTooLongError for a line over `maxLineBytes`, before holding more of it.
 */
export async function forEachLine(
  path: string,
  range: ByteRange | undefined,
  onLine: LineConsumer,
  chunkBytes = CHUNK_BYTES,
  maxLineBytes = Infinity,
): Promise<void> {
  const end = range?.end ?? Infinity
  let position = range?.start ?? 0
  let buffer: Buffer = Buffer.allocUnsafe(chunkBytes)
  let filled = 0 // buffer[0, filled) holds bytes read and not yet handed out
  let lines = 0
  const file = await open(path)
  try {
    for (;;) {
      if (filled === buffer.length) {
        // A line longer than the buffer: buffer[0, filled) is its start.
        if (filled >= maxLineBytes) throw new LineTooLongError(lines, maxLineBytes)
        buffer = grown(buffer, filled)
      }
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
        if (lineEnd - lineStart > maxLineBytes) throw new LineTooLongError(lines, maxLineBytes)
        onLine(data.toString('utf8', lineStart, lineEnd), data, lineStart, lineEnd)
        lines++
        lineStart = lineEnd + breakBytes
      }
      if (last) {
        if (filled - lineStart > maxLineBytes) throw new LineTooLongError(lines, maxLineBytes)
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
