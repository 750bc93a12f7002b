import { describe, expect, it } from 'vitest'
import {
  decodePostings,
  postingSize,
  readVarint,
  varintSize,
  writePosting,
  writeVarint,
} from './postings-codec.js'

/** Encodes postings as the index builder does: gaps from the previous document, sizes first. */
function encode(docs: number[], titleTf: number[], bodyTf: number[]): Uint8Array {
  let size = 0
  let previous = -1
  docs.forEach((doc, i) => {
    size += postingSize(doc - previous - 1, titleTf[i]!, bodyTf[i]!)
    previous = doc
  })
  const out = new Uint8Array(size)
  let at = 0
  previous = -1
  docs.forEach((doc, i) => {
    at = writePosting(out, at, doc - previous - 1, titleTf[i]!, bodyTf[i]!)
    previous = doc
  })
  expect(at).toBe(size)
  return out
}

describe('postings as bytes', () => {
  it('decodes what was encoded: every count shape, gaps of every width, document 0 and the largest', () => {
    const docs = [0, 1, 2, 130, 16_500, 16_501, 2_100_000, 270_000_000, 2 ** 31 - 1]
    const titleTf = [0, 1, 0, 14, 15, 255, 0, 3, 0]
    const bodyTf = [1, 0, 2, 14, 0, 255, 15, 0, 1]
    const bytes = encode(docs, titleTf, bodyTf)
    const decoded = decodePostings(bytes, 0, docs.length)
    expect(Array.from(decoded.docs)).toEqual(docs)
    expect(Array.from(decoded.titleTf)).toEqual(titleTf)
    expect(Array.from(decoded.bodyTf)).toEqual(bodyTf)
  })

  it('decodes the first postings of a run, from where the run starts', () => {
    const bytes = encode([3, 9, 12], [0, 2, 0], [1, 1, 1])
    const shifted = new Uint8Array(bytes.length + 5)
    shifted.set(bytes, 5)
    expect(Array.from(decodePostings(shifted, 5, 2).docs)).toEqual([3, 9])
  })

  it('spends a byte on a frequent word once in the body, the common case', () => {
    expect(postingSize(0, 0, 1)).toBe(1)
    expect(postingSize(63, 0, 1)).toBe(1)
    expect(postingSize(64, 0, 1)).toBe(2)
    expect(postingSize(0, 1, 2)).toBe(2)
    expect(postingSize(0, 20, 2)).toBe(4)
  })

  it('reads and writes varints up to 32 bits', () => {
    for (const value of [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1]) {
      const out = new Uint8Array(varintSize(value))
      expect(writeVarint(out, 0, value)).toBe(out.length)
      expect(readVarint(out, 0)).toEqual({ value, end: out.length })
    }
  })
})
