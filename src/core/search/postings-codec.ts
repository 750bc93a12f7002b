/**
 * Postings as bytes: what a snapshot keeps of its inverted index. Held as plain arrays (a document
 * number and two counts, 6 bytes a posting), the postings of 1 000 000 generated records took
 * 640 MB, more than a quarter of the service's memory; encoded, they take about 1.4 bytes a posting.
 *
 * A term's postings, documents ascending, are one run of bytes. Each posting is a LEB128 varint of
 * `gap * 2 + plain`, where gap is the document number minus the previous one, minus one (the first
 * posting's previous is -1), and `plain` is 1 when the term is once in the body and not in the title
 * (three postings in four); otherwise a byte `title << 4 | body` follows when both counts are below
 * 15, or 0xff then the two counts. Small gaps (frequent words) take one byte.
 *
 * A search decodes a term's postings whole into arrays (text-index.ts keeps the most recently used
 * decoded): a frequent word's million postings decode in a few milliseconds, and the per-document
 * matching loop (match-plan.ts) then runs on arrays as before. Written by hand: it is a page of
 * code, and the varint libraries on npm decode one number per call through a generic interface.
 *
 * Document numbers must stay below 2³¹ (the varint arithmetic is 32-bit).
 */
import { pageBacked } from './growable.js'
import type { Postings } from './postings.js'

const ESCAPE = 0xff

/** Encoded size of one posting. */
export function postingSize(gap: number, titleTf: number, bodyTf: number): number {
  const plain = titleTf === 0 && bodyTf === 1
  return varintSize(gap * 2 + (plain ? 1 : 0)) + (plain ? 0 : titleTf < 15 && bodyTf < 15 ? 1 : 3)
}

/** Writes one posting at `at`; returns where the next one goes. */
export function writePosting(
  out: Uint8Array,
  at: number,
  gap: number,
  titleTf: number,
  bodyTf: number,
): number {
  const plain = titleTf === 0 && bodyTf === 1
  at = writeVarint(out, at, gap * 2 + (plain ? 1 : 0))
  if (plain) return at
  if (titleTf < 15 && bodyTf < 15) {
    out[at++] = (titleTf << 4) | bodyTf
    return at
  }
  out[at++] = ESCAPE
  out[at++] = titleTf
  out[at++] = bodyTf
  return at
}

export function varintSize(value: number): number {
  let size = 1
  while (value >= 0x80) {
    value >>>= 7
    size++
  }
  return size
}

export function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80
    value >>>= 7
  }
  out[at++] = value
  return at
}

/** The varint at `at`: its value and where it ends. */
export function readVarint(bytes: Uint8Array, at: number): { value: number; end: number } {
  let value = 0
  let shift = 0
  let byte: number
  do {
    byte = bytes[at++]!
    value += (byte & 0x7f) * 2 ** shift
    shift += 7
  } while (byte >= 0x80)
  return { value, end: at }
}

/**
 * Postings at least this many are decoded into page-backed memory (growable.ts): a frequent word's
 * decoded postings stay in the index's cache until it lets them go, and their pages then go back to
 * the system instead of staying in malloc's heap. Fewer come from malloc, which reuses small blocks.
 * From malloc, at 1 000 000 records, they left 77 MiB in its heap after a query mix (22 MiB so),
 * which took the service to 2 046 MiB; each decode now pays for fresh pages instead (docs/scale.md).
 */
const PAGE_BACKED_POSTINGS = 16_384

/** A decoded posting: its document (4 bytes) and its counts in the title and the body (1 each). */
export const DECODED_POSTING_BYTES = 6

/** The first `count` postings of the run starting at `at` of `bytes`, decoded (one block of DECODED_POSTING_BYTES a posting). */
export function decodePostings(bytes: Uint8Array, at: number, count: number): Postings {
  const bytesNeeded = count * DECODED_POSTING_BYTES
  const memory =
    count >= PAGE_BACKED_POSTINGS ? pageBacked(Uint8Array, bytesNeeded).buffer : new ArrayBuffer(bytesNeeded)
  const postings = {
    docs: new Uint32Array(memory, 0, count),
    titleTf: new Uint8Array(memory, count * 4, count),
    bodyTf: new Uint8Array(memory, count * 5, count),
  }
  decodeInto(bytes, at, -1, count, postings)
  return postings
}

/** A word's postings as the index holds them: `count` postings encoded from `at` in `bytes`. */
export type EncodedRun = { readonly bytes: Uint8Array; readonly at: number; readonly count: number }

/**
 * Decodes `run` a block at a time into `block` (reused: its length is the block's size), and hands
 * each block's length to `each`: a word's postings read straight through with no array of them all
 * (a query that reads a broad word once needs neither the memory nor the cache).
 */
export function decodeInBlocks(run: EncodedRun, block: Postings, each: (length: number) => void): void {
  const size = block.docs.length
  let at = run.at
  for (let from = 0; from < run.count; from += size) {
    const length = Math.min(size, run.count - from)
    at = decodeInto(run.bytes, at, from === 0 ? -1 : block.docs[size - 1]!, length, block)
    each(length)
  }
}

/** Decodes `count` postings from `at` into the first `count` places of `into`, after document `previous`; returns where the next posting starts. */
function decodeInto(
  bytes: Uint8Array,
  at: number,
  previous: number,
  count: number,
  { docs, titleTf, bodyTf }: Postings,
): number {
  let doc = previous
  for (let i = 0; i < count; i++) {
    // A common word's gaps take one byte: that case stays in 32-bit integers, the longer varints
    // go through longVarint (a double here made the whole loop run in doubles, twice as slow).
    let value = bytes[at++]!
    if (value >= 0x80) {
      value = longVarint(bytes, at, value)
      at = varintEnd(bytes, at)
    }
    doc += (value >>> 1) + 1
    docs[i] = doc
    if ((value & 1) === 1) {
      titleTf[i] = 0 // written: a reused block holds the previous block's values
      bodyTf[i] = 1
      continue
    }
    const tf = bytes[at++]!
    if (tf === ESCAPE) {
      titleTf[i] = bytes[at++]!
      bodyTf[i] = bytes[at++]!
    } else {
      titleTf[i] = tf >>> 4
      bodyTf[i] = tf & 0x0f
    }
  }
  return at
}

/** The value of a varint of two bytes or more, whose first byte `first` was read and whose next is at `at`. */
function longVarint(bytes: Uint8Array, at: number, first: number): number {
  let value = first & 0x7f
  let byte: number
  let shift = 7
  do {
    byte = bytes[at++]!
    value += (byte & 0x7f) * 2 ** shift
    shift += 7
  } while (byte >= 0x80)
  return value
}

/** Where the varint whose second byte is at `at` ends. */
function varintEnd(bytes: Uint8Array, at: number): number {
  while (bytes[at++]! >= 0x80);
  return at
}

/**
 * A word's postings as bits (dense-postings.ts), in one pass over its run: bit `doc` of `member` for
 * each document, of `special` for each whose counts are not (title 0, body 1), and those documents'
 * count bytes in `counts` (`title << 4 | body` as encoded, or ESCAPE, then their counts in
 * `escaped` by their place among the special ones). Gives the number of special documents.
 * Straight from the bytes, with no decoded block between: that took a common word's bits 20 ns a
 * posting to build, 25 ms for a word of 900 000 documents.
 */
export function decodeIntoBits(
  run: EncodedRun,
  member: Uint32Array,
  special: Uint32Array,
  counts: Uint8Array,
  escaped: Map<number, number>,
): number {
  const { bytes, count } = run
  let at = run.at
  let doc = -1
  let specials = 0
  for (let i = 0; i < count; i++) {
    let value = bytes[at++]!
    if (value >= 0x80) {
      value = longVarint(bytes, at, value)
      at = varintEnd(bytes, at)
    }
    doc += (value >>> 1) + 1
    const word = doc >>> 5
    const bit = 1 << (doc & 31)
    member[word] = member[word]! | bit
    if ((value & 1) === 1) continue
    special[word] = special[word]! | bit
    const tf = bytes[at++]!
    counts[specials] = tf
    if (tf === ESCAPE) {
      escaped.set(specials, (bytes[at]! << 8) | bytes[at + 1]!)
      at += 2
    }
    specials++
  }
  return specials
}
