import { describe, expect, it } from 'vitest'
import { candidateSpaceChecks } from '../../../test/support/properties/candidate-space.js'
import { CandidateSpace } from './candidate-space.js'

// A small snapshot, for a quick check: candidate-space.scale.test.ts runs the same properties on
// 3 000 generated records, over ten times the searches.
const { expectSearchesAlike, expectUnionsAlike } = candidateSpaceChecks(300)

describe('a search work space reused by every search of an index', () => {
  it('gives each search the answer of the reference evaluator, as in arrays of its own, whatever searches came before', () => {
    expectSearchesAlike(40)
  })

  it('unites postings as new arrays do, and leaves its marks cleared', () => {
    expectUnionsAlike(20)
  })

  it('grows to the largest set met and never past a document each', () => {
    const space = new CandidateSpace(5_000)
    expect(space.perCandidate(10).matched.length).toBe(1_024)
    expect(space.perCandidate(3_000).scores.length).toBe(3_000)
    expect(space.perCandidate(3_001).tiers.length).toBe(5_000)
    expect(space.union(4_999).length).toBe(4_999)
  })
})
