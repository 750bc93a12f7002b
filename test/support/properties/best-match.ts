/**
 * Best match against the reference evaluator (test/support/search-oracle.ts): every document read
 * from its text, scored against every group by the documented rule, then sorted — sharing no code
 * with the plan, the postings or their pruning. What best-match.ts counts on bits level by level, or
 * term at a time rarest group first, and stops reading early must give the same page, the same
 * masks and the same total, whatever the groups, filters and pages. Shared by the unit tier (a
 * small snapshot, tens of queries) and the scale tier (2 000 generated records, hundreds of queries).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { matchBest, type BestMatchRequest } from '../../../src/core/search/best-match.js'
import { CandidateSpace } from '../../../src/core/search/candidate-space.js'
import type { TermGroup } from '../../../src/core/search/match-plan.js'
import { matchWithPlan } from '../../../src/core/search/match.js'
import { generatedSnapshot } from '../generated-snapshot.js'

export function bestMatchChecks(count: number) {
  const { data, text, postingsOf, ranking, byFrequency, oracle, byWord } = generatedSnapshot(
    'best-match',
    count,
  )
  const stats = text
  const space = new CandidateSpace(data.count)

  const word = (term: number, weight = 1): TermGroup => [{ slots: [[{ term, weight }]], weight: 1 }]
  const keepKind = (kind: number) => (doc: number) => data.kinds[doc] === kind

  /** The same page, masks and total as the reference evaluator, counting on bits, term at a time, and as the sizes choose. */
  function expectLikeReference(groups: TermGroup[], page: Omit<BestMatchRequest, 'groups'>): void {
    const request = { groups, ...page }
    const expected = oracle.best(byWord(groups), page.keep)
    const shown = expected.ranked.slice(page.offset, page.offset + page.limit)
    for (const counting of ['bits', 'postings', undefined] as const) {
      const answer = matchBest(postingsOf, stats, ranking, request, space, counting)
      expect(
        { docs: answer.docs, masks: answer.masks, best: answer.best, total: answer.total },
        `counting on ${counting ?? 'either'}`,
      ).toEqual({
        docs: shown.map((s) => s.doc),
        masks: shown.map((s) => s.mask),
        best: expected.best,
        total: expected.total,
      })
      // The masks are what the records' text says, not only what the plan computed.
      answer.docs.forEach((doc, i) =>
        byWord(groups).forEach((group, g) =>
          expect(((answer.masks[i]! >>> g) & 1) === 1, `doc ${doc}, group ${g}`).toBe(
            oracle.holds(group, doc),
          ),
        ),
      )
    }
  }

  const { next } = createRng(sfc32(hashSeed('best-match queries')))
  // Frequent words most of the time (where pruning matters), rare ones sometimes.
  const pick = () => byFrequency[Math.floor(next() ** 3 * byFrequency.length)]!

  /** `rounds` random queries of 2 to 9 words, filtered or not, on several pages. */
  function expectRandomQueries(rounds: number): void {
    for (let round = 0; round < rounds; round++) {
      const groups = Array.from({ length: 2 + Math.floor(next() * 8) }, () => word(pick()))
      const page = [
        { keep: undefined, offset: 0, limit: 10 },
        { keep: undefined, offset: 20, limit: 50 },
        { keep: keepKind(round % 9), offset: 0, limit: 10 },
        { keep: (doc: number) => data.france[doc] === 1, offset: 3, limit: 7 },
      ][round % 4]!
      expectLikeReference(groups, page)
    }
  }

  /**
   * `rounds` random queries with forms, aliases of several words, groups read from several query
   * words (which weigh more), and groups no document holds.
   */
  function expectRandomGroups(rounds: number): void {
    for (let round = 0; round < rounds; round++) {
      const groups: TermGroup[] = Array.from({ length: 2 + Math.floor(next() * 5) }, (_, g) => {
        if (g === 0 && round % 5 === 0) return [{ slots: [[]], weight: 1 }] // a word found nowhere
        const group = Array.from({ length: 1 + Math.floor(next() * 2) }, (_, o) => ({
          slots: Array.from({ length: 1 + Math.floor(next() * 2) }, () =>
            Array.from({ length: 1 + Math.floor(next() * 2) }, (_, w) => ({
              term: pick(),
              weight: w === 0 ? 1 : 0.8,
            })),
          ),
          weight: o === 0 ? 1 : 0.8,
        }))
        const words = 1 + Math.floor(next() * 3)
        return words > 1 ? Object.assign(group, { words }) : group
      })
      expectLikeReference(groups, { keep: undefined, offset: 0, limit: 10 })
    }
  }

  /** `rounds` two-word queries: what an all-words search finds comes first, in its order. */
  function expectAllWordsFirst(rounds: number): void {
    for (let round = 0; round < rounds; round++) {
      const groups = [
        word(byFrequency[Math.floor(next() * 40)]!),
        word(byFrequency[Math.floor(next() * 400)]!),
      ]
      const every = oracle.all(byWord(groups))
      const all = { total: every.length, docs: every.slice(0, 30) }
      if (all.total === 0) continue
      // The all-words search itself answers as the reference does.
      expect(
        matchWithPlan(postingsOf, stats, ranking, { groups, keep: undefined, offset: 0, limit: 30 }),
      ).toEqual(all)
      const best = matchBest(
        postingsOf,
        stats,
        ranking,
        { groups, keep: undefined, offset: 0, limit: 30 },
        space,
      )
      expect(best.total).toBe(all.total)
      expect(best.best).toBe(0b11)
      expect(best.docs.slice(0, Math.min(30, all.total))).toEqual(all.docs)
    }
  }

  return { postingsOf, stats, ranking, space, expectRandomQueries, expectRandomGroups, expectAllWordsFirst }
}
