/**
 * One word group read word by word (match-one-group.ts) and the general plan (match.ts), each
 * against the reference evaluator (test/support/search-oracle.ts), on a snapshot of the sample records and `count` generated ones. Shared by the unit tier (a small
 * snapshot, tens of words and groups) and the scale tier (3 000 generated records, hundreds of each).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { GroupScratch, matchOneGroup } from '../../../src/core/search/match-one-group.js'
import { matchWithPlan, type MatchRequest, type TermGroup } from '../../../src/core/search/match.js'
import { generatedSnapshot } from '../generated-snapshot.js'

export function oneGroupChecks(count: number) {
  const { data, text, postingsOf, ranking, byFrequency, oracle, byWord } = generatedSnapshot(
    'one-group',
    count,
  )
  const stats = text
  const scratch = new GroupScratch(data.count)
  // Words read from their encoded bytes in blocks of 7 postings (so most words cross blocks), every
  // other word decoded, as a snapshot's cache would have some words and not others.
  const blockScratch = new GroupScratch(data.count, 7)
  const runOf = (term: number) =>
    term % 2 === 0
      ? postingsOf(term)
      : { bytes: text.postings, at: text.termStart[term]!, count: text.frequency[term]! }

  const keepKind = (kind: number) => (doc: number) => data.kinds[doc] === kind
  const requests: Omit<MatchRequest, 'groups'>[] = [
    { keep: undefined, offset: 0, limit: 10 },
    { keep: undefined, offset: 37, limit: 50 },
    { keep: keepKind(0), offset: 0, limit: 10 },
    { keep: (doc) => data.france[doc] === 1, offset: 5, limit: 20 },
    { keep: undefined, offset: 0, limit: 10, countOnly: true },
  ]

  /** Both ways of reading the group's words, and the plan, answer every request as the reference does. */
  function expectSameAnswers(group: TermGroup): void {
    // A filter keeps the order of what it keeps: the reference ranks once.
    const ranked = oracle.all(byWord([group]))
    for (const request of requests) {
      const every = request.keep === undefined ? ranked : ranked.filter(request.keep)
      const expected = {
        total: every.length,
        docs: request.countOnly ? [] : every.slice(request.offset, request.offset + request.limit),
      }
      expect(matchWithPlan(postingsOf, stats, ranking, { ...request, groups: [group] })).toEqual(expected)
      expect(matchOneGroup(group, postingsOf, stats, ranking, request, scratch)).toEqual(expected)
      expect(matchOneGroup(group, runOf, stats, ranking, request, blockScratch)).toEqual(expected)
    }
  }

  /** Each of the `words` most frequent words and `words` rarest, alone. */
  function expectFrequentAndRare(words: number): void {
    for (const term of [...byFrequency.slice(0, words), ...byFrequency.slice(-words)])
      expectSameAnswers([{ slots: [[{ term, weight: 1 }]], weight: 1 }])
  }

  /** `rounds` random groups of forms and aliases, weighted as queries weigh them. */
  function expectRandomGroups(rounds: number): void {
    const { next } = createRng(sfc32(hashSeed('one-group words')))
    const pick = () => byFrequency[Math.floor(next() ** 2 * byFrequency.length)]!
    for (let round = 0; round < rounds; round++) {
      const options = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, o) => ({
        slots: [
          Array.from({ length: 1 + Math.floor(next() * 3) }, (_, w) => ({
            term: pick(),
            weight: w === 0 ? 1 : 0.8,
          })),
        ],
        weight: o === 0 ? 1 : 0.8,
      }))
      // An alias none of whose words is indexed is an empty slot: left out by both.
      if (round % 10 === 0) options.push({ slots: [[]], weight: 0.8 })
      expectSameAnswers(options)
    }
  }

  return {
    postingsOf,
    stats,
    ranking,
    byFrequency,
    scratch,
    requests,
    expectSameAnswers,
    expectFrequentAndRare,
    expectRandomGroups,
  }
}
