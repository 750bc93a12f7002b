/**
 * `Plan` on its own, over a corpus of four records written by hand: which documents it finds, the
 * values it returns for them (tier, BM25 score, best match's mask and coverage), the order it takes
 * the groups in and the groups a best match leaves out. The expected scores are the documented
 * formulas (docs/search.md) written out here, not the plan's code.
 */
import { describe, expect, it } from 'vitest'
import { Plan, TITLE_BOOST, TITLE_COVER, K1, B, type TermGroup } from './match-plan.js'
import { decodePostings } from './postings-codec.js'
import { TextIndexBuilder } from './text-index-builder.js'
import { countBits, hasBit } from './dense-postings.js'

const RECORDS = [
  /* 0 */ { title: 'Radar', body: 'radar fixe' },
  /* 1 */ { title: 'Amende', body: 'radar mobile' },
  /* 2 */ { title: 'Vitesse', body: 'limite' },
  /* 3 */ { title: 'Radar mobile', body: 'contrôle' },
]
const N = RECORDS.length
// Words per field, as the records above are written.
const TITLE_WORDS = [1, 1, 1, 2]
const BODY_WORDS = [2, 2, 1, 1]

const builder = new TextIndexBuilder()
for (const { title, body } of RECORDS) builder.add(title, body)
const part = builder.part()
const stats = {
  titleLength: part.titleLength,
  bodyLength: part.bodyLength,
  averageTitle: part.titleWords / N,
  averageBody: part.bodyWords / N,
}
const termOf = new Map(part.terms.map((term, id) => [term, id]))
const postings = (term: number) => decodePostings(part.postings, part.termStart[term]!, part.frequency[term]!)

/** The term of an indexed word; a word no record holds gives an empty slot, as the interpreter leaves it. */
const terms = (...words: string[]) =>
  words.flatMap((w, i) => {
    const term = termOf.get(w)
    return term === undefined ? [] : [{ term, weight: i === 0 ? 1 : 0.8 }]
  })
/** A required word, with its other forms (0.8 each) when given. */
const word = (typed: string, ...forms: string[]): TermGroup => [
  { slots: [terms(typed, ...forms)], weight: 1 },
]
/** A phrase of several words, each a slot, as an alias of several words is planned. */
const phrase = (...words: string[]): TermGroup => [{ slots: words.map((w) => terms(w)), weight: 1 }]

// BM25 as docs/search.md states it: per field, normalised by the field's length, the title ×2.
const idf = (n: number) => Math.log(1 + (N - n + 0.5) / (n + 0.5))
const averageTitle = TITLE_WORDS.reduce((a, b) => a + b) / N
const averageBody = BODY_WORDS.reduce((a, b) => a + b) / N
function bm25(doc: number, n: number, titleTf: number, bodyTf: number, weight = 1): number {
  const titleNorm = K1 * (1 - B + (B * TITLE_WORDS[doc]!) / averageTitle)
  const bodyNorm = K1 * (1 - B + (B * BODY_WORDS[doc]!) / averageBody)
  return (
    weight *
    idf(n) *
    ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) + (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
  )
}
/** What a group held by `n` records weighs in a best match: 1, plus up to half for the rarest. */
const rarity = (n: number) => 1 + (0.5 * idf(n)) / idf(1)
/**
 * What it weighs as one of two or more context groups of a query (held by at least half the
 * records, as «radar», 3 of 4, and «mobile», 2 of 4): a tenth of its rarity.
 */
const context = (n: number) => 0.1 * rarity(n)

const planOf = (groups: TermGroup[]) => {
  const plan = Plan.of(groups, postings, stats)
  if (plan === undefined) throw new Error('no plan')
  return plan
}
/** A score summed in another order may differ in its last bits. */
const close = (value: number): unknown => expect.closeTo(value, 12)

describe('Plan.matches', () => {
  it('returns the title tier and the BM25 score of a document holding the word, nothing for one that lacks it', () => {
    // «radar»: records 0, 1 and 3. Record 0 holds it once in its title and once in its body.
    const plan = planOf([word('radar')])
    expect(plan.matches(0)).toEqual({ tier: 1, score: close(bm25(0, 3, 1, 1)) })
    expect(plan.matches(1)).toEqual({ tier: 0, score: close(bm25(1, 3, 0, 1)) })
    expect(plan.matches(2)).toBeUndefined()
    expect(plan.matches(3)).toEqual({ tier: 1, score: close(bm25(3, 3, 1, 0)) })
  })

  it('requires every group, counts the groups its title holds and sums their scores', () => {
    const plan = planOf([word('radar'), word('mobile')])
    expect(plan.matches(0)).toBeUndefined()
    expect(plan.matches(1)).toEqual({ tier: 0, score: close(bm25(1, 3, 0, 1) + bm25(1, 2, 0, 1)) })
    expect(plan.matches(3)).toEqual({ tier: 2, score: close(bm25(3, 3, 1, 0) + bm25(3, 2, 1, 0)) })
  })

  it('returns a value of its own for each document: a later document changes no earlier answer', () => {
    const plan = planOf([word('radar')])
    const first = plan.matches(0)
    const snapshot = { ...first }
    plan.matches(1)
    plan.matches(3)
    expect(first).toEqual(snapshot)
    expect(Object.keys(plan)).not.toContain('tier')
    expect(Object.keys(plan)).not.toContain('score')
  })

  it('scores a word by its best form in the document, another form weighing 0.8', () => {
    // «vitesse» typed, «radar» as its other form: record 0 holds only the form.
    const plan = planOf([word('vitesse', 'radar')])
    expect(plan.matches(2)).toEqual({ tier: 1, score: close(bm25(2, 1, 1, 0)) })
    // Documents come in ascending order between two rewinds.
    plan.rewind()
    expect(plan.matches(0)).toEqual({ tier: 1, score: close(bm25(0, 3, 1, 1, 0.8)) })
  })

  it('finds a phrase only where all its words are, in the title only when all of them are there', () => {
    const plan = planOf([phrase('radar', 'mobile')])
    expect(plan.matches(0)).toBeUndefined()
    expect(plan.matches(1)).toEqual({ tier: 0, score: close(bm25(1, 3, 0, 1) + bm25(1, 2, 0, 1)) })
    expect(plan.matches(3)).toEqual({ tier: 1, score: close(bm25(3, 3, 1, 0) + bm25(3, 2, 1, 0)) })
  })
})

describe('Plan.of', () => {
  it('is undefined when a group can match nothing, or there is no group', () => {
    expect(Plan.of([], postings, stats)).toBeUndefined()
    expect(Plan.of([word('radar'), word('inconnu')], postings, stats)).toBeUndefined()
  })

  it('takes the rarest group first, keeping each group’s bit of the query', () => {
    // «vitesse» (1 record) before «radar» (3): its bit is that of position 1 in the query.
    const plan = planOf([word('radar'), word('vitesse')])
    expect([plan.bitOf(0), plan.bitOf(1)]).toEqual([2, 1])
    expect(plan.fullMask).toBe(3)
    expect(Array.from(plan.candidates())).toEqual([2])
    expect([plan.candidateCount(0), plan.candidateCount(1)]).toEqual([1, 3])
  })

  it('gives as possible the documents holding every group, as bits', () => {
    const possible = planOf([word('radar'), word('mobile')]).possible()
    expect(countBits(possible)).toBe(2)
    expect([0, 1, 2, 3].filter((doc) => hasBit(possible, doc))).toEqual([1, 3])
  })
})

describe('Plan.covers (best match)', () => {
  const groups = () => [word('vitesse'), word('radar'), word('mobile')]

  it('returns the groups a document holds as query bits, what they weigh, its tier and its score', () => {
    const plan = Plan.forBest(groups(), postings, stats)!
    // Record 3 titles «radar» (bit 2, 3 records) and «mobile» (bit 4, 2 records), the query's two
    // context groups.
    expect(plan.covers(3, 0)).toEqual({
      mask: 6,
      coverage: close(context(2) * TITLE_COVER + context(3) * TITLE_COVER),
      tier: 2,
      score: close(bm25(3, 2, 1, 0) + bm25(3, 3, 1, 0)),
    })
    // Record 1 holds both in its body only (documents ascend between two rewinds).
    plan.rewind()
    expect(plan.covers(1, 0)).toEqual({
      mask: 6,
      coverage: close(context(2) + context(3)),
      tier: 0,
      score: close(bm25(1, 2, 0, 1) + bm25(1, 3, 0, 1)),
    })
    plan.rewind()
    // Record 2 titles «vitesse», the rarest (1 record): 1.5 × its weight, 1.5 × 1.5.
    expect(plan.covers(2, 0)).toEqual({
      mask: 1,
      coverage: close(rarity(1) * TITLE_COVER),
      tier: 1,
      score: close(bm25(2, 1, 1, 0)),
    })
    expect(rarity(1) * TITLE_COVER).toBeCloseTo(2.25, 12)
  })

  it('weighs a group read from several query words half its rarity again for each further word', () => {
    // «radar mobile» typed as one phrase with aliases (2 words) against «vitesse» (1 word, rarer).
    const plan = Plan.forBest(
      [word('vitesse'), Object.assign(phrase('radar', 'mobile'), { words: 2 })],
      postings,
      stats,
    )!
    // The phrase's size is its rarest slot («mobile», 2 records).
    expect(plan.plainWeight(0)).toBeCloseTo(rarity(1), 12)
    expect(plan.plainWeight(1)).toBeCloseTo(rarity(2) * 1.5, 12)
    // Record 1 holds the phrase in its body: it now outweighs record 2's titled «vitesse».
    expect(plan.covers(1, 0)!.coverage).toBeCloseTo(rarity(2) * 1.5, 12)
    expect(rarity(2) * 1.5).toBeGreaterThan(rarity(1))
  })

  it('weighs the context groups of a query a tenth of their rarity when it has two or more, one alone as it is', () => {
    // «radar» (3 of 4 records) and «mobile» (2 of 4) are context beside the rare «vitesse» (1 of 4).
    const plan = Plan.forBest(groups(), postings, stats)!
    expect(plan.plainWeight(0)).toBeCloseTo(rarity(1), 12)
    expect(plan.plainWeight(1)).toBeCloseTo(context(2), 12)
    expect(plan.plainWeight(2)).toBeCloseTo(context(3), 12)
    // Record 2's titled «vitesse» now outweighs record 3's two titled context words.
    expect(plan.covers(2, 0)!.coverage).toBeGreaterThan(plan.covers(3, 0)!.coverage)
    // «radar» alone beside «vitesse» is no context: it may be what the query is about.
    const one = Plan.forBest([word('vitesse'), word('radar')], postings, stats)!
    expect(one.plainWeight(1)).toBeCloseTo(rarity(3), 12)
  })

  it('gives up on a document that lacks a group and cannot reach the floor, never on one holding every group', () => {
    const plan = Plan.forBest(groups(), postings, stats)!
    // Record 1 lacks «vitesse»: at most what «radar» and «mobile» weigh in titles.
    const reach = (context(2) + context(3)) * TITLE_COVER
    expect(plan.covers(1, reach + 0.01)).toBeUndefined()
    plan.rewind()
    expect(plan.covers(1, context(2) + context(3) - 0.01)?.mask).toBe(6)
    const pair = Plan.forBest([word('radar'), word('mobile')], postings, stats)!
    expect(pair.covers(3, Infinity)?.mask).toBe(3)
  })

  it('scores a document holding every group as matches does', () => {
    const plan = planOf([word('radar'), word('mobile')])
    const all = plan.matches(3)!
    plan.rewind()
    const covered = plan.covers(3, 0)!
    expect([covered.tier, covered.score]).toEqual([all.tier, all.score])
  })

  it('leaves out the groups no document holds, a phrase whose words are never together among them', () => {
    // «inconnu» is in no record; «fixe» (0) and «mobile» (1, 3) never share one.
    const plan = Plan.forBest(
      [word('inconnu'), word('radar'), phrase('fixe', 'mobile'), word('vitesse')],
      postings,
      stats,
    )!
    expect(plan.groupCount).toBe(2)
    expect(plan.fullMask).toBe(2 | 8)
    expect(plan.plainWeight(0)).toBeCloseTo(rarity(1), 12)
    expect(plan.plainWeight(1)).toBeCloseTo(rarity(3), 12)
    expect(Plan.forBest([word('inconnu'), phrase('fixe', 'mobile')], postings, stats)).toBeUndefined()
  })
})
