/**
 * Best match against the reference evaluator, on 2 000 generated records and the sample, over
 * hundreds of queries; best-match.test.ts runs the same properties on a small snapshot.
 */
import { describe, it } from 'vitest'
import { bestMatchChecks } from '../../../test/support/properties/best-match.js'

const { expectRandomQueries, expectRandomGroups, expectAllWordsFirst } = bestMatchChecks(2_000)

describe('best match, at scale', () => {
  it('ranks as the reference evaluator for random queries of 2 to 9 words, filtered or not, on several pages', () => {
    expectRandomQueries(120)
  })

  it('ranks as the reference evaluator with forms, aliases of several words, and groups no document holds', () => {
    expectRandomGroups(80)
  })

  it('puts first, in the all-words order, exactly what an all-words search finds, when some document holds every group', () => {
    expectAllWordsFirst(60)
  })
})
