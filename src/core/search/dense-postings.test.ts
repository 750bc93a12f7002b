/**
 * Postings as bits against the arrays they replace: the same documents and counts for random
 * postings, and the same answers from both searches when the common words are read as bits.
 */
import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { generatedSnapshot } from '../../../test/support/generated-snapshot.js'
import { matchBest } from './best-match.js'
import { CandidateSpace } from './candidate-space.js'
import { DensePostings, popcount, type TermPostingsOf } from './dense-postings.js'
import type { TermGroup } from './match-plan.js'
import { matchWithPlan } from './match.js'
import { postingSize, writePosting } from './postings-codec.js'
import type { Postings } from './postings.js'
import { unionOfDocs } from './postings.js'
import type { PrebuiltDense } from './snapshot-data.js'
import { isIgnorable } from './stop-words.js'
import { TextIndex, prebuiltDense } from './text-index.js'
import { randomPostings } from '../../../test/support/random-postings.js'

const { next } = createRng(sfc32(hashSeed('dense postings')))
const below = (n: number) => Math.floor(next() * n)

/** Random postings over `documentCount` documents, each held with probability `share`. */
const randomPostingsOf = (documentCount: number, share: number): Postings =>
  randomPostings(next, documentCount, share, () => {
    const kind = below(4)
    // Most once in the body (the "plain" posting), some in the title, some counted past 15 (escaped).
    return [
      kind === 1 ? 1 + below(3) : kind === 2 ? below(300) % 256 : 0,
      kind === 0 ? 1 : kind === 3 ? 15 + below(241) : below(20),
    ]
  })

function encode({ docs, titleTf, bodyTf }: Postings): Uint8Array {
  let size = 0
  for (let i = 0; i < docs.length; i++)
    size += postingSize(docs[i]! - (i === 0 ? -1 : docs[i - 1]!) - 1, titleTf[i]!, bodyTf[i]!)
  const bytes = new Uint8Array(size + 3)
  let at = 3 // not at the start, as a word's run in the index
  for (let i = 0; i < docs.length; i++)
    at = writePosting(bytes, at, docs[i]! - (i === 0 ? -1 : docs[i - 1]!) - 1, titleTf[i]!, bodyTf[i]!)
  return bytes
}

function expectSame(dense: DensePostings, postings: Postings, documentCount: number): void {
  const { docs, titleTf, bodyTf } = postings
  expect(dense.length).toBe(docs.length)
  expect(Array.from(dense.docsInto(new Uint32Array(docs.length)))).toEqual(Array.from(docs))
  const held = new Set(docs)
  // One comparison of every document's answer: an expect per document was most of the file's time.
  const every = Array.from({ length: documentCount }, (_, doc) => doc)
  expect(every.filter((doc) => dense.has(doc) !== held.has(doc))).toEqual([])
  const seen = { title: [] as number[], body: [] as number[] }
  for (const doc of docs) {
    seen.title.push(dense.titleTf(doc))
    seen.body.push(dense.bodyTf(doc))
  }
  expect(seen).toEqual({ title: Array.from(titleTf), body: Array.from(bodyTf) })
  const titled = docs.filter((_, i) => titleTf[i]! > 0)
  expect(Array.from(dense.titled.docs)).toEqual(Array.from(titled))
  expect(Array.from(dense.titled.titleTf)).toEqual(Array.from(titleTf.filter((tf) => tf > 0)))
}

describe('dense postings', () => {
  it('hold the documents and counts of random postings, built from the encoded run or the arrays', () => {
    for (const documentCount of [1, 31, 32, 33, 255, 256, 257, 5_000]) {
      for (const share of [0, 0.02, 0.5, 0.97, 1]) {
        const postings = randomPostingsOf(documentCount, share)
        const run = { bytes: encode(postings), at: 3, count: postings.docs.length }
        expectSame(DensePostings.fromRun(run, documentCount), postings, documentCount)
        expectSame(DensePostings.fromPostings(postings, documentCount), postings, documentCount)
      }
    }
  })

  it('count bits as a bit-by-bit count does', () => {
    for (let round = 0; round < 1_000; round++) {
      const x = (below(2 ** 16) * 2 ** 16 + below(2 ** 16)) >>> 0
      let n = 0
      for (let b = 0; b < 32; b++) n += (x >>> b) & 1
      expect(popcount(x)).toBe(n)
    }
    expect(popcount(0xffffffff)).toBe(32)
  })

  it('unite with arrays as the arrays alone do', () => {
    const documentCount = 3_000
    for (let round = 0; round < 30; round++) {
      const lists = Array.from({ length: 1 + below(3) }, () => randomPostingsOf(documentCount, next() * 0.6))
      const expected = unionOfDocs(
        lists.map((p) => p.docs),
        documentCount,
      )
      const mixed = lists.map((p, i) =>
        i % 2 === round % 2 ? DensePostings.fromPostings(p, documentCount) : p.docs,
      )
      expect(Array.from(unionOfDocs(mixed, documentCount))).toEqual(Array.from(expected))
      expect(Array.from(unionOfDocs(mixed, documentCount, new CandidateSpace(documentCount)))).toEqual(
        Array.from(expected),
      )
    }
  })
})

describe('searches with the common words as bits', () => {
  const { data, text, postingsOf, ranking, byFrequency } = generatedSnapshot('dense postings', 600)
  const dense = new Map<number, DensePostings>()
  /** The words held by one document in 16 or more as bits, as the index reads them. */
  const mixedOf: TermPostingsOf = (term) => {
    if (text.frequency[term]! * 16 < data.count) return postingsOf(term)
    return (
      dense.get(term) ?? dense.set(term, DensePostings.fromPostings(postingsOf(term), data.count)).get(term)!
    )
  }
  const pick = () => byFrequency[Math.floor(next() ** 3 * byFrequency.length)]!
  const group = (): TermGroup =>
    Array.from({ length: 1 + below(2) }, (_, o) => ({
      slots: Array.from({ length: 1 + below(2) }, () =>
        Array.from({ length: 1 + below(2) }, (_, w) => ({ term: pick(), weight: w === 0 ? 1 : 0.8 })),
      ),
      weight: o === 0 ? 1 : 0.8,
    }))
  const word = (): TermGroup => [{ slots: [[{ term: pick(), weight: 1 }]], weight: 1 }]
  const pages = [
    { keep: undefined, offset: 0, limit: 10 },
    { keep: undefined, offset: 20, limit: 50 },
    { keep: (doc: number) => data.kinds[doc] === 1, offset: 0, limit: 10 },
  ]

  it('finds the words of the queries as bits and as arrays', () => {
    expect(byFrequency.slice(0, 20).filter((t) => mixedOf(t) instanceof DensePostings).length).toBe(20)
  })

  it('give the all-words search the same answers', () => {
    for (let round = 0; round < 150; round++) {
      const groups = Array.from({ length: 1 + below(6) }, () => (round % 2 === 0 ? word() : group()))
      const request = { groups, ...pages[round % pages.length]! }
      const space = new CandidateSpace(data.count)
      expect(matchWithPlan(mixedOf, text, ranking, request, space)).toEqual(
        matchWithPlan(postingsOf, text, ranking, request),
      )
    }
  })

  it('answer the same from the bits made with the snapshot, handed over as a thread would', () => {
    const prebuilt = prebuiltDense(text, { minDocuments: 1 })
    expect(prebuilt.terms.length).toBeGreaterThan(20)
    const transferred = structuredClone(prebuilt)
    const withBits = new TextIndex({ ...text, dense: transferred })
    const without = new TextIndex(text)
    for (let round = 0; round < 100; round++) {
      const groups = Array.from({ length: 2 + below(8) }, () => (round % 2 === 0 ? word() : group()))
      const page = pages[round % pages.length]!
      expect(withBits.search({ groups, ...page }, ranking)).toEqual(
        without.search({ groups, ...page }, ranking),
      )
      expect(withBits.searchBest({ groups, ...page }, ranking)).toEqual(
        without.searchBest({ groups, ...page }, ranking),
      )
    }
  })

  it('make the bits of the most frequent searched words, within their bytes', () => {
    const all = prebuiltDense(text, { minDocuments: 1 })
    const bytesOf = (p: PrebuiltDense) =>
      p.words.reduce((sum, w) => sum + DensePostings.fromParts(w).bytes, 0)
    const bounded = prebuiltDense(text, { minDocuments: 1, maxBytes: bytesOf(all) / 3 })
    expect(bytesOf(bounded)).toBeLessThanOrEqual(bytesOf(all) / 3)
    expect(Array.from(bounded.terms)).toEqual(Array.from(all.terms.subarray(0, bounded.terms.length)))
    const frequencies = Array.from(all.terms, (t) => text.frequency[t]!)
    expect(frequencies).toEqual([...frequencies].sort((a, b) => b - a))
    for (const t of all.terms) expect(isIgnorable(text.terms[t]!), text.terms[t]).toBe(false)
    all.words.forEach((w, i) => {
      const term = all.terms[i]!
      expectSame(DensePostings.fromParts(w), postingsOf(term), data.count)
    })
  })

  it('give best match the same answers', () => {
    for (let round = 0; round < 150; round++) {
      const groups = Array.from({ length: 2 + below(8) }, () => (round % 2 === 0 ? word() : group()))
      const request = { groups, ...pages[round % pages.length]! }
      expect(matchBest(mixedOf, text, ranking, request, new CandidateSpace(data.count))).toEqual(
        matchBest(postingsOf, text, ranking, request, new CandidateSpace(data.count)),
      )
    }
  })
})
