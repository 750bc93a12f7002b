/**
 * A search work space reused by every search of an index (candidate-space.ts) against arrays of each
 * search's own and against the reference evaluator (test/support/search-oracle.ts), on a snapshot of the sample records and `count` generated ones. Shared by the unit
 * tier (a small snapshot, tens of searches) and the scale tier (3 000 generated records, hundreds).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { CandidateSpace } from '../../../src/core/search/candidate-space.js'
import { matchWithPlan, type MatchRequest, type TermGroup } from '../../../src/core/search/match.js'
import { unionOfDocs } from '../../../src/core/search/postings.js'
import { generatedSnapshot } from '../generated-snapshot.js'

export function candidateSpaceChecks(count: number) {
  const { data, text, postingsOf, ranking, byFrequency, oracle, byWord } = generatedSnapshot(
    'candidate-space',
    count,
  )

  /** `rounds` random searches through one space answer as searches in arrays of their own. */
  function expectSearchesAlike(rounds: number): void {
    const space = new CandidateSpace(data.count)
    const { next } = createRng(sfc32(hashSeed('candidate-space searches')))
    // Mostly frequent words, so that unions are large enough to be marked (an eighth of the
    // records) as often as they are small enough to be sorted.
    const pick = () => byFrequency[Math.floor(next() ** 3 * byFrequency.length)]!
    const group = (): TermGroup =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, (_, o) => ({
        slots: [
          Array.from({ length: 1 + Math.floor(next() * 4) }, (_, w) => ({
            term: pick(),
            weight: w === 0 ? 1 : 0.8,
          })),
        ],
        weight: o === 0 ? 1 : 0.8,
      }))
    let marked = 0
    for (let round = 0; round < rounds; round++) {
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
      const every = oracle.all(byWord(groups), request.keep)
      const expected = {
        total: every.length,
        docs: request.countOnly ? [] : every.slice(request.offset, request.offset + request.limit),
      }
      expect(matchWithPlan(postingsOf, text, ranking, request, space), `round ${round}`).toEqual(expected)
      expect(matchWithPlan(postingsOf, text, ranking, request), `round ${round}`).toEqual(expected)
    }
    // Not a check that passes on sorted unions alone: one search in eight at least used the marks.
    expect(marked).toBeGreaterThan(rounds / 8)
    expect(space.marks().every((mark) => mark === 0)).toBe(true)
  }

  /** `rounds` random unions through one space equal new arrays, and leave its marks cleared. */
  function expectUnionsAlike(rounds: number): void {
    const space = new CandidateSpace(data.count)
    const { next } = createRng(sfc32(hashSeed('candidate-space unions')))
    for (let round = 0; round < rounds; round++) {
      const lists = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => postingsOf(byFrequency[Math.floor(next() ** 2 * byFrequency.length)]!).docs,
      )
      expect(Array.from(unionOfDocs(lists, data.count, space))).toEqual(
        Array.from(unionOfDocs(lists, data.count)),
      )
    }
    expect(space.marks().every((mark) => mark === 0)).toBe(true)
  }

  return { expectSearchesAlike, expectUnionsAlike }
}
