/**
 * Best match against the reference evaluator (test/support/properties/best-match.ts), on a small
 * snapshot for a quick check: best-match.scale.test.ts runs the same properties on 2 000 generated
 * records, over four times the queries.
 */
import { describe, expect, it } from 'vitest'
import { bestMatchChecks } from '../../../test/support/properties/best-match.js'
import { matchBest } from './best-match.js'

const { postingsOf, stats, ranking, space, expectRandomQueries, expectRandomGroups, expectAllWordsFirst } =
  bestMatchChecks(300)

describe('best match', () => {
  it('ranks as the reference evaluator for random queries of 2 to 9 words, filtered or not, on several pages', () => {
    expectRandomQueries(30)
  })

  it('ranks as the reference evaluator with forms, aliases of several words, and groups no document holds', () => {
    expectRandomGroups(20)
  })

  it('puts first, in the all-words order, exactly what an all-words search finds, when some document holds every group', () => {
    expectAllWordsFirst(15)
  })

  it('answers nothing when no group can match anything', () => {
    expect(
      matchBest(
        postingsOf,
        stats,
        ranking,
        { groups: [[{ slots: [[]], weight: 1 }], []], keep: undefined, offset: 0, limit: 10 },
        space,
      ),
    ).toEqual({
      total: 0,
      docs: [],
      masks: [],
      best: 0,
    })
  })
})
