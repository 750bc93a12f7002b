/**
 * Best match against an exhaustive reference: every document scored against every group, with no
 * pruning, then sorted. What best-match.ts counts on bits level by level, or term at a time rarest
 * group first, and stops reading early must give the same page, the same masks and the same total,
 * whatever the groups, filters and pages. Shared by the unit tier (a small snapshot, tens of
 * queries) and the scale tier (2 000 generated records, hundreds of queries).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { matchBest, type BestMatchRequest } from '../../../src/core/search/best-match.js'
import { CandidateSpace } from '../../../src/core/search/candidate-space.js'
import { Plan, type TermGroup } from '../../../src/core/search/match-plan.js'
import { matchWithPlan } from '../../../src/core/search/match.js'
import { generatedSnapshot } from '../generated-snapshot.js'

type Scored = { doc: number; mask: number; coverage: number; tier: number; score: number; full: boolean }

export function bestMatchChecks(count: number) {
  const { data, text, postingsOf, ranking, byFrequency } = generatedSnapshot('best-match', count)
  const stats = text
  const space = new CandidateSpace(data.count)

  /** Whether `doc` holds `group`, read from the postings directly (not through a plan). */
  function holds(group: TermGroup, doc: number): boolean {
    return group.some(
      (option) =>
        option.slots.length > 0 &&
        option.slots.every((slot) => slot.some(({ term }) => postingsOf(term).docs.includes(doc))),
    )
  }

  /** Every document holding a group, scored by the plan with no floor, sorted as best match sorts. */
  function reference(request: BestMatchRequest): { ranked: Scored[]; best: number; total: number } {
    const plan = Plan.forBest(request.groups, postingsOf, stats)
    if (plan === undefined) return { ranked: [], best: 0, total: 0 }
    // Holding every group that some document holds is holding them all: a word found nowhere is left out.
    const fullMask = plan.fullMask
    const scored: Scored[] = []
    plan.rewind()
    for (let doc = 0; doc < data.count; doc++) {
      if (request.keep !== undefined && !request.keep(doc)) continue
      if (!plan.covers(doc, 0)) continue
      scored.push({
        doc,
        mask: plan.mask,
        coverage: plan.coverage,
        tier: plan.tier,
        score: plan.score,
        full: plan.mask === fullMask,
      })
    }
    const { rankClass, tieRank } = ranking
    scored.sort(
      (a, b) =>
        Number(b.full) - Number(a.full) ||
        (a.full ? 0 : b.coverage - a.coverage) ||
        b.tier - a.tier ||
        rankClass[a.doc]! - rankClass[b.doc]! ||
        b.score - a.score ||
        tieRank[a.doc]! - tieRank[b.doc]!,
    )
    const best = scored[0]?.mask ?? 0
    return { ranked: scored, best, total: scored.filter((s) => (s.mask & best) >>> 0 === best).length }
  }

  const word = (term: number, weight = 1): TermGroup => [{ slots: [[{ term, weight }]], weight: 1 }]
  const keepKind = (kind: number) => (doc: number) => data.kinds[doc] === kind

  /** The same page, masks and total as the reference, counting on bits, term at a time, and as the sizes choose. */
  function expectLikeReference(groups: TermGroup[], page: Omit<BestMatchRequest, 'groups'>): void {
    const request = { groups, ...page }
    const expected = reference(request)
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
      // The masks are what the postings say, not only what the plan computed.
      answer.docs.forEach((doc, i) =>
        groups.forEach((group, g) =>
          expect(((answer.masks[i]! >>> g) & 1) === 1, `doc ${doc}, group ${g}`).toBe(holds(group, doc)),
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

  /** `rounds` random queries with forms, aliases of several words, and groups no document holds. */
  function expectRandomGroups(rounds: number): void {
    for (let round = 0; round < rounds; round++) {
      const groups: TermGroup[] = Array.from({ length: 2 + Math.floor(next() * 5) }, (_, g) => {
        if (g === 0 && round % 5 === 0) return [{ slots: [[]], weight: 1 }] // a word found nowhere
        return Array.from({ length: 1 + Math.floor(next() * 2) }, (_, o) => ({
          slots: Array.from({ length: 1 + Math.floor(next() * 2) }, () =>
            Array.from({ length: 1 + Math.floor(next() * 2) }, (_, w) => ({
              term: pick(),
              weight: w === 0 ? 1 : 0.8,
            })),
          ),
          weight: o === 0 ? 1 : 0.8,
        }))
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
      const all = matchWithPlan(postingsOf, stats, ranking, { groups, keep: undefined, offset: 0, limit: 30 })
      if (all.total === 0) continue
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
