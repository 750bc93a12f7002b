/**
 * One word group read word by word, on 3 000 generated records and the sample, over hundreds of words
 * and groups; match-one-group.test.ts runs the same properties on a small snapshot.
 */
import { describe, it } from 'vitest'
import { oneGroupChecks } from '../../../test/support/properties/one-group.js'

const { expectFrequentAndRare, expectRandomGroups } = oneGroupChecks(3_000)

describe('one word group read word by word, at scale', () => {
  it('answers as the plan does for each of the 300 most frequent words and 300 rare ones', () => {
    expectFrequentAndRare(300)
  })

  it('answers as the plan does for words with forms and aliases, weighted as queries weigh them', () => {
    expectRandomGroups(300)
  })
})
