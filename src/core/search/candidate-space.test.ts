import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { generatedSnapshot } from '../../../test/support/generated-snapshot.js'
import { CandidateSpace } from './candidate-space.js'
import { matchWithPlan, type MatchRequest, type TermGroup } from './match.js'
import { unionOfDocs } from './postings.js'

const { data, text, postingsOf, ranking, byFrequency } = generatedSnapshot('candidate-space')

describe('a search work space reused by every search of an index', () => {
  it('gives each search the answer it gives in arrays of its own, whatever searches came before', () => {
    const space = new CandidateSpace(data.count)
    const { next } = createRng(sfc32(hashSeed('candidate-space searches')))
    // Mostly frequent words, so that unions are large enough to be marked (an eighth of the
    // records) as often as they are small enough to be sorted.
    const pick = () => byFrequency[Math.floor(next() ** 3 * byFrequency.length)]!
    const group = (): TermGroup =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, (_, o) => ({
        slots: [Array.from({ length: 1 + Math.floor(next() * 4) }, (_, w) => ({ term: pick(), weight: w === 0 ? 1 : 0.8 }))],
        weight: o === 0 ? 1 : 0.8,
      }))
    let marked = 0
    for (let round = 0; round < 400; round++) {
      const groups = Array.from({ length: 1 + Math.floor(next() * 3) }, group)
      const request: MatchRequest = {
        groups,
        keep: round % 3 === 0 ? (doc) => data.france[doc] === 1 : undefined,
        countOnly: round % 7 === 0,
        offset: Math.floor(next() * 30),
        limit: 1 + Math.floor(next() * 50),
      }
      const lists = groups[0]!.flatMap((option) => option.slots[0]!.map(({ term }) => postingsOf(term).docs))
      if (lists.length > 1 && lists.reduce((n, l) => n + l.length, 0) * 8 > data.count) marked++
      expect(matchWithPlan(postingsOf, text, ranking, request, space), `round ${round}`).toEqual(matchWithPlan(postingsOf, text, ranking, request))
    }
    expect(marked).toBeGreaterThan(50)
    expect(space.marks().every((mark) => mark === 0)).toBe(true)
  })

  it('unites postings as new arrays do, and leaves its marks cleared', () => {
    const space = new CandidateSpace(data.count)
    const { next } = createRng(sfc32(hashSeed('candidate-space unions')))
    for (let round = 0; round < 200; round++) {
      const lists = Array.from({ length: 1 + Math.floor(next() * 6) }, () => postingsOf(byFrequency[Math.floor(next() ** 2 * byFrequency.length)]!).docs)
      expect(Array.from(unionOfDocs(lists, data.count, space))).toEqual(Array.from(unionOfDocs(lists, data.count)))
    }
    expect(space.marks().every((mark) => mark === 0)).toBe(true)
  })

  it('grows to the largest set met and never past a document each', () => {
    const space = new CandidateSpace(5_000)
    expect(space.perCandidate(10).matched.length).toBe(1_024)
    expect(space.perCandidate(3_000).scores.length).toBe(3_000)
    expect(space.perCandidate(3_001).tiers.length).toBe(5_000)
    expect(space.union(4_999).length).toBe(4_999)
  })
})
