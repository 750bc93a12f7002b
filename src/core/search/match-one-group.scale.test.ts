/**
 * One word group read word by word, on 3 000 generated records and the sample, over hundreds of words
 * and groups; match-one-group.test.ts runs the same properties on a small snapshot.
 */
import { describe, it } from 'vitest'
import { oneGroupChecks } from '../../../test/support/properties/one-group.js'

const { expectFrequentAndRare, expectRandomGroups } = oneGroupChecks(3_000)

// The reference evaluator reads every candidate record's text for each of hundreds of groups: room
// for it on a busy machine.
describe('one word group read word by word, at scale', { timeout: 120_000 }, () => {
  it('answers as the plan and the reference evaluator do for each of the 300 most frequent words and 300 rare ones', () => {
    expectFrequentAndRare(300)
  })

  it('answers as the plan and the reference evaluator do for words with forms and aliases, weighted as queries weigh them', () => {
    expectRandomGroups(300)
  })
})
