import type { CandidateSpace } from './candidate-space.js'

/** Postings of one indexed word: the documents holding it (ascending) and its count in each field (at most 255). */
export type Postings = {
  readonly docs: Uint32Array
  readonly titleTf: Uint8Array
  readonly bodyTf: Uint8Array
}

/** First index ≥ `from` whose value is ≥ `target` in the ascending array (galloping, then binary search). */
export function seek(values: Uint32Array, target: number, from: number): number {
  let step = 1
  let high = from
  while (high < values.length && values[high]! < target) {
    from = high + 1
    high += step
    step *= 2
  }
  high = Math.min(high, values.length)
  while (from < high) {
    const mid = (from + high) >>> 1
    if (values[mid]! < target) from = mid + 1
    else high = mid
  }
  return from
}

/**
 * A word's documents held as bits (dense-postings.ts), as a union reads them: how many, and written
 * out ascending. Named by its shape here so that the bits' module, which decodes postings, is not
 * imported back.
 */
type DocumentBits = { readonly length: number; docsInto(into: Uint32Array): Uint32Array }

/**
 * The ascending union of several postings' documents (arrays, or bits: dense-postings.ts). Small
 * unions are concatenated and sorted; large ones (over an eighth of the corpus) are marked in a byte
 * per document, which costs one pass over the corpus instead of a sort of hundreds of thousands of
 * numbers. With `space` the union is written there (valid until the next search of its index);
 * without, in new arrays.
 */
export function unionOfDocs(
  lists: readonly (Uint32Array | DocumentBits)[],
  documentCount: number,
  space?: CandidateSpace,
): Uint32Array {
  const total = lists.reduce((n, l) => n + l.length, 0)
  if (lists.length === 1) {
    const only = lists[0]!
    return only instanceof Uint32Array ? only : only.docsInto(space?.union(total) ?? new Uint32Array(total))
  }
  if (total * 8 > documentCount) {
    const marks = space?.marks() ?? new Uint8Array(documentCount)
    for (const list of lists) {
      const docs = list instanceof Uint32Array ? list : list.docsInto(new Uint32Array(list.length))
      for (let i = 0; i < docs.length; i++) marks[docs[i]!] = 1
    }
    const union = space?.union(Math.min(total, documentCount)) ?? new Uint32Array(total)
    let size = 0
    for (let doc = 0; doc < documentCount; doc++) {
      if (marks[doc] === 1) {
        marks[doc] = 0 // cleared as read: the marks are ready for the next search
        union[size++] = doc
      }
    }
    return union.subarray(0, size)
  }
  const all = (space?.union(total) ?? new Uint32Array(total)).subarray(0, total)
  let at = 0
  for (const list of lists) {
    if (list instanceof Uint32Array) all.set(list, at)
    else list.docsInto(all.subarray(at))
    at += list.length
  }
  all.sort()
  let size = 0
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[size++] = all[i]!
  return all.subarray(0, size)
}
