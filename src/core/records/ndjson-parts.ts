/**
 * Cutting an NDJSON file into byte ranges of whole lines, so that several threads can each read,
 * validate and index one range (snapshot builds of large files use every core). A range is named by
 * its bytes; its first line's number is counted by whoever reads it, the way readline numbers lines
 * (a line ends at "\n", "\r\n" or a lone "\r"), so messages name the same lines as a whole read.
 */
import { open, type FileHandle } from 'node:fs/promises'

/** Bytes [start, end) of a file: whole lines. */
export type ByteRange = { start: number; end: number }

/** Below this many bytes per part, a thread costs more than it saves (about 20 000 generated records). */
const MIN_PART_BYTES = 32 * 2 ** 20

const CHUNK = 4 * 2 ** 20
const LF = 0x0a
const CR = 0x0d

/** Up to `parts` ranges of whole lines covering the file's `size` bytes; one range when it is too small to share. */
export async function splitLines(
  path: string,
  size: number,
  parts: number,
  minPartBytes = MIN_PART_BYTES,
): Promise<ByteRange[]> {
  const count = Math.max(1, Math.min(parts, Math.floor(size / Math.max(1, minPartBytes))))
  const file = await open(path)
  try {
    const cuts = [0]
    for (let k = 1; k < count; k++) {
      const cut = await lineStartFrom(file, Math.floor((size * k) / count), size)
      if (cut > cuts.at(-1)! && cut < size) cuts.push(cut)
    }
    cuts.push(size)
    return cuts.slice(1).map((end, k) => ({ start: cuts[k]!, end }))
  } finally {
    await file.close()
  }
}

/** The first line start at or after `from`: just past the next "\n" (a cut inside "\r\n" would split one line break in two). */
async function lineStartFrom(file: FileHandle, from: number, size: number): Promise<number> {
  const buffer = Buffer.alloc(64 * 1024)
  for (let at = Math.max(0, from - 1); at < size;) {
    const { bytesRead } = await file.read({ buffer, position: at })
    if (bytesRead === 0) break
    const lf = buffer.subarray(0, bytesRead).indexOf(LF)
    if (lf >= 0) return at + lf + 1
    at += bytesRead
  }
  return size
}

/** Line breaks in the file's first `end` bytes, counted as readline counts them ("\r\n" is one). */
export async function lineBreaksBefore(path: string, end: number, chunkBytes = CHUNK): Promise<number> {
  const file = await open(path)
  try {
    const buffer = Buffer.alloc(chunkBytes)
    let breaks = 0
    let pendingCr = false // a "\r" ended the previous chunk: one break, whatever follows
    for (let at = 0; at < end;) {
      const { bytesRead } = await file.read({ buffer, position: at, length: Math.min(chunkBytes, end - at) })
      if (bytesRead === 0) break
      const bytes = buffer.subarray(0, bytesRead)
      let from = 0
      if (pendingCr) {
        breaks++
        if (bytes[0] === LF) from = 1 // "\r\n" across the chunks: counted once
        pendingCr = false
      }
      for (let i = bytes.indexOf(LF, from); i >= 0; i = bytes.indexOf(LF, i + 1)) breaks++
      for (let i = bytes.indexOf(CR, from); i >= 0; i = bytes.indexOf(CR, i + 1)) {
        if (i === bytes.length - 1) pendingCr = true
        else if (bytes[i + 1] !== LF) breaks++
      }
      at += bytesRead
    }
    return breaks + (pendingCr ? 1 : 0)
  } finally {
    await file.close()
  }
}
