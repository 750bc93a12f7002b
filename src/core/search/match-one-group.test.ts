import { describe, expect, it } from 'vitest'
import { oneGroupChecks } from '../../../test/support/properties/one-group.js'
import { matchOneGroup } from './match-one-group.js'
import type { TermGroup } from './match.js'

// A small snapshot, for a quick check: match-one-group.scale.test.ts runs the same properties on
// 3 000 generated records, over ten times the words and groups.
const {
  postingsOf,
  stats,
  ranking,
  byFrequency,
  scratch,
  requests,
  expectSameAnswers,
  expectFrequentAndRare,
  expectRandomGroups,
} = oneGroupChecks(300)

describe('one word group read word by word', () => {
  it('answers as the plan and the reference evaluator do for each of the 30 most frequent words and 30 rare ones', () => {
    expectFrequentAndRare(30)
  })

  it('answers as the plan and the reference evaluator do for words with forms and aliases, weighted as queries weigh them', () => {
    expectRandomGroups(30)
  })

  it('answers nothing when no alternative can match', () => {
    expect(
      matchOneGroup([{ slots: [[]], weight: 1 }], postingsOf, stats, ranking, requests[0]!, scratch),
    ).toEqual({ total: 0, docs: [] })
  })

  it('leaves its work space as it found it, even after a search that did not finish', () => {
    const group: TermGroup = [{ slots: [[{ term: byFrequency[0]!, weight: 1 }]], weight: 1 }]
    const failing = () =>
      matchOneGroup(
        group,
        postingsOf,
        stats,
        ranking,
        {
          ...requests[0]!,
          keep: () => {
            throw new Error('filter failed')
          },
        },
        scratch,
      )
    expect(failing).toThrow('filter failed')
    expectSameAnswers(group)
    expect(scratch.scores.every((score) => score === -1)).toBe(true)
    expect(scratch.titled.every((flag) => flag === 0)).toBe(true)
  })
})
