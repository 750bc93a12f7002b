/**
 * Best match's levels on bits against a count made document by document, on random postings (some
 * words as bits, some as arrays) and random groups with forms, aliases and phrases: every
 * document's level, the documents holding a set of groups, and the bound of each document.
 */
import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { CoverageLevels } from './coverage-levels.js'
import { SliceBudget } from './steps.js'
import { DensePostings, type TermPostings } from './dense-postings.js'
import { BOUND_SLACK, Plan, type FieldStats, type TermGroup } from './match-plan.js'
import type { Postings } from './postings.js'
import { randomPostings } from '../../../test/support/random-postings.js'

const { next } = createRng(sfc32(hashSeed('coverage levels')))
const below = (n: number) => Math.floor(next() * n)

/** Random postings over `documentCount` documents, each held with probability `share`, some in the title. */
const randomPostingsOf = (documentCount: number, share: number): Postings =>
  randomPostings(next, documentCount, share, () => {
    const inTitle = below(5) === 0
    return [inTitle ? 1 + below(2) : 0, inTitle && below(2) === 0 ? 0 : 1 + below(3)]
  })

/** A corpus of `documentCount` documents and `terms` words, from rare to held by most documents. */
function randomIndex(documentCount: number, terms: number) {
  const arrays = Array.from({ length: terms }, () =>
    randomPostingsOf(documentCount, [0.01, 0.1, 0.4, 0.8][below(4)]!),
  )
  // As the index reads them: a word held by one document in 16 or more as bits, half of the time.
  const read: TermPostings[] = arrays.map((p) =>
    p.docs.length * 16 >= documentCount && below(2) === 0 ? DensePostings.fromPostings(p, documentCount) : p,
  )
  const titleLength = Float32Array.from({ length: documentCount }, () => 1 + below(12))
  const bodyLength = Float32Array.from({ length: documentCount }, () => 20 + below(300))
  const mean = (values: Float32Array) => values.reduce((a, b) => a + b, 0) / values.length
  const stats: FieldStats = {
    titleLength,
    bodyLength,
    averageTitle: mean(titleLength),
    averageBody: mean(bodyLength),
  }
  return { arrays, postingsOf: (term: number) => read[term]!, stats }
}

/** A group of one word, or of forms, aliases and phrases (an alternative of several slots). */
function randomGroup(terms: number, simple: boolean): TermGroup {
  if (simple) return [{ slots: [[{ term: below(terms), weight: 1 }]], weight: 1 }]
  return Array.from({ length: 1 + below(3) }, (_, o) => ({
    slots: Array.from({ length: 1 + below(2) }, () =>
      Array.from({ length: 1 + below(3) }, (_, w) => ({ term: below(terms), weight: w === 0 ? 1 : 0.8 })),
    ),
    weight: o === 0 ? 1 : 0.8,
  }))
}

/** What a document holds of `group`, read from the arrays: the group, and the group with a title word. */
function heldBy(group: TermGroup, arrays: Postings[], doc: number): { held: boolean; titled: boolean } {
  const options = group.filter((o) => o.slots.length > 0 && o.slots.every((slot) => slot.length > 0))
  const at = (term: number) => arrays[term]!.docs.indexOf(doc)
  const held = options.some((o) => o.slots.every((slot) => slot.some(({ term }) => at(term) !== -1)))
  const titled = options.some((o) =>
    o.slots.some((slot) => slot.some(({ term }) => at(term) !== -1 && arrays[term]!.titleTf[at(term)]! > 0)),
  )
  return { held, titled: held && titled }
}

describe('best match levels on bits', () => {
  it('give each document twice the groups it holds plus those its title holds, as counted document by document', () => {
    for (let round = 0; round < 60; round++) {
      const documentCount = 1 + below(700)
      const terms = 12
      const { arrays, postingsOf, stats } = randomIndex(documentCount, terms)
      const simple = round % 2 === 0
      const groups = Array.from({ length: 1 + below(12) }, () => randomGroup(terms, simple))
      const plan = Plan.forBest(groups, postingsOf, stats)
      if (plan === undefined) continue
      const levels = CoverageLevels.of(plan)
      const expected = new Map<number, number>()
      const wrong: string[] = []
      const queryGroup = (g: number) => groups[31 - Math.clz32(plan.bitOf(g))]!
      for (let doc = 0; doc < documentCount; doc++) {
        let level = 0
        for (let g = 0; g < plan.groupCount; g++) {
          const { held, titled } = heldBy(queryGroup(g), arrays, doc)
          level += (held ? 2 : 0) + (titled ? 1 : 0)
        }
        expected.set(level, (expected.get(level) ?? 0) + 1)
        const w = doc >>> 5
        const bit = 1 << (doc & 31)
        // Collected, then compared once: an expect per document was most of the file's time.
        if (!levels.wordsReaching(level).includes(w)) wrong.push(`doc ${doc}: not reaching ${level}`)
        if ((levels.within(w, level, level) & bit) === 0) wrong.push(`doc ${doc}: not at level ${level}`)
        if ((levels.within(w, level + 1, levels.top) & bit) !== 0) wrong.push(`doc ${doc}: above ${level}`)
      }
      expect(wrong).toEqual([])
      for (let level = 1; level <= levels.top; level++)
        expect(levels.countWithin(level, level), `level ${level}`).toBe(expected.get(level) ?? 0)
    }
  })

  it('count the documents holding a set of groups, filtered or not', () => {
    for (let round = 0; round < 60; round++) {
      const documentCount = 1 + below(700)
      const terms = 10
      const { arrays, postingsOf, stats } = randomIndex(documentCount, terms)
      const groups = Array.from({ length: 1 + below(10) }, () => randomGroup(terms, round % 2 === 0))
      const plan = Plan.forBest(groups, postingsOf, stats)
      if (plan === undefined) continue
      const levels = CoverageLevels.of(plan)
      const keep = round % 3 === 0 ? (doc: number) => doc % 3 !== 0 : undefined
      // A random non-empty set of the plan's groups, as query bits.
      let mask = 0
      for (let g = 0; g < plan.groupCount; g++) if (below(2) === 0 || mask === 0) mask |= plan.bitOf(g)
      mask >>>= 0
      let expected = 0
      for (let doc = 0; doc < documentCount; doc++) {
        if (keep !== undefined && !keep(doc)) continue
        if (groups.every((group, i) => ((mask >>> i) & 1) === 0 || heldBy(group, arrays, doc).held))
          expected++
      }
      expect(levels.holding(mask, keep)).toBe(expected)
    }
  })

  it('bound each document by what `covers` finds it weighs, exactly for groups of one word', () => {
    for (let round = 0; round < 40; round++) {
      const documentCount = 1 + below(700)
      const terms = 12
      const { postingsOf, stats } = randomIndex(documentCount, terms)
      const simple = round % 2 === 0
      const groups = Array.from({ length: 2 + below(8) }, () => randomGroup(terms, simple))
      const plan = Plan.forBest(groups, postingsOf, stats)
      if (plan === undefined) continue
      const levels = CoverageLevels.of(plan)
      levels.wordsReaching(0)
      plan.rewind()
      const wrong: string[] = []
      for (let doc = 0; doc < documentCount; doc++) {
        const coverage = plan.covers(doc, 0)?.coverage ?? 0
        const bound = levels.bound(doc)
        if (bound + BOUND_SLACK < coverage)
          wrong.push(`doc ${doc}: bound ${bound} under coverage ${coverage}`)
        if (simple && bound !== coverage) wrong.push(`doc ${doc}: bound ${bound}, coverage ${coverage}`)
        const w = doc >>> 5
        let level = 0
        while ((levels.within(w, level, level) & (1 << (doc & 31))) === 0) level++
        if (levels.reach(level) + BOUND_SLACK < bound)
          wrong.push(`doc ${doc}: level ${level} reaches ${levels.reach(level)}, under its bound ${bound}`)
      }
      expect(wrong).toEqual([])
    }
  })

  it('are the same read in small slices as at once, and yield between them', () => {
    let yielded = 0
    for (let round = 0; round < 30; round++) {
      const documentCount = 200 + below(700)
      const terms = 12
      const { postingsOf, stats } = randomIndex(documentCount, terms)
      const groups = Array.from({ length: 2 + below(8) }, () => randomGroup(terms, round % 2 === 0))
      const plan = Plan.forBest(groups, postingsOf, stats)
      if (plan === undefined) continue
      const whole = CoverageLevels.of(plan)
      // A slice of a few words: reading the holders and counting the levels each yield many times.
      const steps = CoverageLevels.inSteps(plan, undefined, new SliceBudget(1 + below(64)))
      let next = steps.next()
      for (; next.done !== true; next = steps.next()) yielded++
      const sliced = next.value
      const counting = sliced.countInSteps()
      while (counting.next().done !== true) yielded++
      for (let level = 0; level <= whole.top; level++) {
        expect([...sliced.wordsReaching(level)]).toEqual([...whole.wordsReaching(level)])
        for (let w = 0; w < whole.words; w++)
          expect(sliced.within(w, level, level)).toBe(whole.within(w, level, level))
      }
    }
    expect(yielded).toBeGreaterThan(100)
  })
})
