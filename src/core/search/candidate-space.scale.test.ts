/**
 * A search work space reused by every search of an index, on 3 000 generated records and the sample,
 * over hundreds of searches and unions; candidate-space.test.ts runs the same properties on a small
 * snapshot.
 */
import { describe, it } from 'vitest'
import { candidateSpaceChecks } from '../../../test/support/properties/candidate-space.js'

const { expectSearchesAlike, expectUnionsAlike } = candidateSpaceChecks(3_000)

describe('a search work space reused by every search of an index, at scale', () => {
  it('gives each search the answer of the reference evaluator, as in arrays of its own, whatever searches came before', () => {
    expectSearchesAlike(400)
  })

  it('unites postings as new arrays do, and leaves its marks cleared', () => {
    expectUnionsAlike(200)
  })
})
