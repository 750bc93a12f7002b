import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { generatedSnapshot } from '../../../test/support/generated-snapshot.js'
import { GroupScratch, matchOneGroup } from './match-one-group.js'
import { matchWithPlan, type MatchRequest, type TermGroup } from './match.js'

const { data, text, postingsOf, ranking, byFrequency } = generatedSnapshot('one-group')
const stats = text
const scratch = new GroupScratch(data.count)
// Words read from their encoded bytes in blocks of 7 postings (so most words cross blocks), every
// other word decoded, as a snapshot's cache would have some words and not others.
const blockScratch = new GroupScratch(data.count, 7)
const runOf = (term: number) => (term % 2 === 0 ? postingsOf(term) : { bytes: text.postings, at: text.termStart[term]!, count: text.frequency[term]! })

const keepKind = (kind: number) => (doc: number) => data.kinds[doc] === kind
const requests: Omit<MatchRequest, 'groups'>[] = [
  { keep: undefined, offset: 0, limit: 10 },
  { keep: undefined, offset: 37, limit: 50 },
  { keep: keepKind(0), offset: 0, limit: 10 },
  { keep: (doc) => data.france[doc] === 1, offset: 5, limit: 20 },
  { keep: undefined, offset: 0, limit: 10, countOnly: true },
]

function expectSameAnswers(group: TermGroup): void {
  for (const request of requests) {
    const planned = matchWithPlan(postingsOf, stats, ranking, { ...request, groups: [group] })
    expect(matchOneGroup(group, postingsOf, stats, ranking, request, scratch)).toEqual(planned)
    expect(matchOneGroup(group, runOf, stats, ranking, request, blockScratch)).toEqual(planned)
  }
}

describe('one word group read word by word', () => {
  it('answers as the plan does for each of the 300 most frequent words and 300 rare ones', () => {
    for (const term of [...byFrequency.slice(0, 300), ...byFrequency.slice(-300)]) expectSameAnswers([{ slots: [[{ term, weight: 1 }]], weight: 1 }])
  })

  it('answers as the plan does for words with forms and aliases, weighted as queries weigh them', () => {
    const { next } = createRng(sfc32(hashSeed('one-group words')))
    const pick = () => byFrequency[Math.floor(next() ** 2 * byFrequency.length)]!
    for (let round = 0; round < 300; round++) {
      const options = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, o) => ({
        slots: [Array.from({ length: 1 + Math.floor(next() * 3) }, (_, w) => ({ term: pick(), weight: w === 0 ? 1 : 0.8 }))],
        weight: o === 0 ? 1 : 0.8,
      }))
      // An alias none of whose words is indexed is an empty slot: left out by both.
      if (round % 10 === 0) options.push({ slots: [[]], weight: 0.8 })
      expectSameAnswers(options)
    }
  })

  it('answers nothing when no alternative can match', () => {
    expect(matchOneGroup([{ slots: [[]], weight: 1 }], postingsOf, stats, ranking, requests[0]!, scratch)).toEqual({ total: 0, docs: [] })
  })

  it('leaves its work space as it found it, even after a search that did not finish', () => {
    const group: TermGroup = [{ slots: [[{ term: byFrequency[0]!, weight: 1 }]], weight: 1 }]
    const failing = () => matchOneGroup(group, postingsOf, stats, ranking, { ...requests[0]!, keep: () => { throw new Error('filter failed') } }, scratch)
    expect(failing).toThrow('filter failed')
    expectSameAnswers(group)
    expect(scratch.scores.every((score) => score === -1)).toBe(true)
    expect(scratch.titled.every((flag) => flag === 0)).toBe(true)
  })
})
