/**
 * What every way of evaluating a search must answer, checked the same way against each of them
 * (matchers.test.ts): which documents match and in which order, on small corpora written by hand,
 * with expectations written by hand (the reasoning beside each). The strategies are the one-group
 * reader, the general plan, best match counting on bits or term at a time, each over each postings
 * representation, and the reference evaluator (test/support/search-oracle.ts), so the oracle the
 * property tests trust is itself held to hand-written answers. After hono's shared router suite and
 * the quota's store.contract.ts.
 */
import { describe, expect, it } from 'vitest'
import type { OracleDocument, OracleGroup } from '../../../test/support/search-oracle.js'

/** A page of a search over a hand-made corpus. */
export type SuitePage = { offset: number; limit: number; keep?: (doc: number) => boolean }
export type SuiteCorpus = { readonly name: string; readonly documents: readonly OracleDocument[] }
type BestAnswer = { total: number; docs: number[]; masks: number[]; best: number }

/**
 * A strategy answers `match=all` or `match=best` over a corpus (it builds what it needs once per
 * corpus), or returns undefined for a query it does not serve (the one-group reader serves one group
 * of single words only).
 */
export type MatcherStrategy = {
  all?: (
    corpus: SuiteCorpus,
    groups: readonly OracleGroup[],
    page: SuitePage,
  ) => { total: number; docs: number[] } | undefined
  best?: (corpus: SuiteCorpus, groups: readonly OracleGroup[], page: SuitePage) => BestAnswer | undefined
}

const doc = (title: string, body: string, rankClass = 0): Omit<OracleDocument, 'tieRank'> => ({
  title,
  body,
  rankClass,
})
const corpus = (
  name: string,
  documents: Omit<OracleDocument, 'tieRank'>[],
  tieRanks?: number[],
): SuiteCorpus => ({
  name,
  documents: documents.map((d, i) => ({ ...d, tieRank: tieRanks?.[i] ?? i })),
})

/** A required word typed as itself, with no other form nor alias. */
const word = (w: string): OracleGroup => [{ slots: [[{ word: w, weight: 1 }]], weight: 1 }]
/** A word with its other forms (0.8 each, as interpret.ts weighs them). */
const forms = (typed: string, ...others: string[]): OracleGroup => [
  { slots: [[{ word: typed, weight: 1 }, ...others.map((w) => ({ word: w, weight: 0.8 }))]], weight: 1 },
]
/** A word and its aliases, each a phrase of one or several words (0.8, as interpret.ts weighs aliases). */
const aliased = (typed: string, ...aliases: string[][]): OracleGroup => [
  { slots: [[{ word: typed, weight: 1 }]], weight: 1 },
  ...aliases.map((phrase) => ({ slots: phrase.map((w) => [{ word: w, weight: 1 }]), weight: 0.8 })),
]

// Bodies of equal length where an order must come from the title or the id, not from BM25.
const ROADS = corpus('roads', [
  /* 0 */ doc('Vitesse sur autoroute', 'La vitesse maximale sur autoroute est de 130 km/h.'),
  /* 1 */ doc('Autoroute : les aires de repos', 'Faire une pause toutes les deux heures.'),
  /* 2 */ doc('Vitesse en ville', 'En ville, la vitesse est limitée à 50 km/h.'),
  /* 3 */ doc('Forfait code', "Le programme couvre la vitesse et l'autoroute.", 1),
  /* 4 */ doc('Permis probatoire', 'Le jeune conducteur a un permis probatoire de trois ans.'),
  /* 5 */ doc('Alcool au volant', 'Jeune conducteur : 0,2 g/l. Permis probatoire.'),
  /* 6 */ doc('Stage autoroute', 'Une heure de conduite sur autoroute.', 1),
])

const FORMS = corpus('forms', [
  doc('Règles', 'stationnement en ville'),
  doc('Règles', 'stationner en ville'),
  doc('Règles', 'circuler en ville'),
])

const HELMETS = corpus('helmets', [
  /* 0 */ doc('Casque', 'Obligatoire à motocyclette.'),
  /* 1 */ doc('Casque deux roues', 'Obligatoire.'),
  /* 2 */ doc('Casque deux', 'Obligatoire sur les roues.'),
  /* 3 */ doc('Casque', 'Obligatoire à vélo.'),
])

/** Identical documents: only their place in id order (tieRank, not their number) tells them apart. */
const TWINS = corpus(
  'twins',
  [
    doc('Priorité à droite', 'Céder le passage.'),
    doc('Priorité à droite', 'Céder le passage.'),
    doc('Priorité à droite', 'Céder le passage.'),
  ],
  [2, 0, 1],
)

/**
 * One record (2) holds every word, each in its body only; 0 and 1 hold the two rare words in their
 * titles. With 8 records, «radar» and «mobile» (3 records each) weigh 1.26, «vitesse» (6) 1.09: 0
 * and 1 weigh 1.5 × 2 × 1.26 = 3.79, more than 2's 1.26 + 1.26 + 1.09 = 3.62. A page of two filled
 * by 0 and 1 must still make room for 2, which holds every group.
 */
const FULL_IN_BODY = corpus('full in body', [
  /* 0 */ doc('Radar mobile', 'Un appareil au bord de la route.'),
  /* 1 */ doc('Radar mobile', 'Un appareil au bord de la rue.'),
  /* 2 */ doc('Contrôles', 'Le radar mobile mesure la vitesse.'),
  /* 3 */ doc('Limites', 'La vitesse en ville.'),
  /* 4 */ doc('Limites', 'La vitesse sur route.'),
  /* 5 */ doc('Limites', 'La vitesse sur autoroute.'),
  /* 6 */ doc('Limites', 'La vitesse des camions.'),
  /* 7 */ doc('Amendes', 'Payer un excès de vitesse.'),
])

const FIRST_PAGE: SuitePage = { offset: 0, limit: 10 }

export function describeMatcher(name: string, strategy: MatcherStrategy): void {
  const all = (c: SuiteCorpus, groups: OracleGroup[], page = FIRST_PAGE) => {
    const answer = strategy.all!(c, groups, page)
    if (answer === undefined) throw new Error('served by another strategy')
    return answer
  }
  const best = (c: SuiteCorpus, groups: OracleGroup[], page = FIRST_PAGE) => {
    const answer = strategy.best!(c, groups, page)
    if (answer === undefined) throw new Error('served by another strategy')
    return answer
  }
  const oneWord = [word('vitesse')]
  const served = (groups: OracleGroup[]) => strategy.all?.(ROADS, groups, FIRST_PAGE) !== undefined

  if (strategy.all !== undefined)
    describe(`${name}: match=all`, () => {
      it('finds a word as a whole word, title matches first, equal matches by id', () => {
        // 0 and 2 hold it in a title of the same length and a body of the same length: a tie broken by id.
        expect(all(ROADS, oneWord)).toEqual({ total: 3, docs: [0, 2, 3] })
      })

      it('never finds a word by its beginning', () => {
        expect(all(ROADS, [word('vites')])).toEqual({ total: 0, docs: [] })
        expect(all(ROADS, [word('auto')])).toEqual({ total: 0, docs: [] })
      })

      it('ranks reference content before promotion at an equal title count, then by BM25', () => {
        // 0 and 1 before 6 (an offer), whatever BM25 says; 0 before 1 (a shorter title, and the body);
        // 3 holds it only in its body.
        if (!served([word('autoroute')])) return
        expect(all(ROADS, [word('autoroute')])).toEqual({ total: 4, docs: [0, 1, 6, 3] })
      })

      it('pages the same order', () => {
        if (!served([word('autoroute')])) return
        expect(all(ROADS, [word('autoroute')], { offset: 1, limit: 2 })).toEqual({ total: 4, docs: [1, 6] })
        expect(all(ROADS, [word('autoroute')], { offset: 9, limit: 2 })).toEqual({ total: 4, docs: [] })
      })

      it('keeps only what the filter keeps', () => {
        expect(all(ROADS, oneWord, { offset: 0, limit: 10, keep: (d) => d !== 0 })).toEqual({
          total: 2,
          docs: [2, 3],
        })
      })

      it('finds a word by its other forms, below the word as typed', () => {
        // Same lengths and the same document counts: the typed form (weight 1) outranks the other (0.8).
        expect(all(FORMS, [forms('stationner', 'stationnement')])).toEqual({ total: 2, docs: [1, 0] })
        expect(all(FORMS, [word('stationner')])).toEqual({ total: 1, docs: [1] })
      })

      it('finds an alias of several words anywhere in a record, in the title only when all its words are', () => {
        const moto = aliased('moto', ['motocyclette'], ['deux', 'roue'])
        // 1 holds the alias «deux roues» in its title; 2 has «deux» in its title and «roues» in its
        // body, so the alias counts as a body match, where two words of it outweigh 0's one
        // (motocyclette); 3 holds none.
        if (served([moto])) expect(all(HELMETS, [moto])).toEqual({ total: 3, docs: [1, 2, 0] })
      })

      it('requires every group (AND)', () => {
        const moto = aliased('moto', ['motocyclette'], ['deux', 'roue'])
        if (!served([word('casque'), moto])) return
        // Two titles words in 1; then 2 before 0 as above.
        expect(all(HELMETS, [word('casque'), moto])).toEqual({ total: 3, docs: [1, 2, 0] })
        expect(all(ROADS, [word('vitesse'), word('autoroute')])).toEqual({ total: 2, docs: [0, 3] })
        expect(all(ROADS, [word('vitesse'), word('probatoire')])).toEqual({ total: 0, docs: [] })
      })

      it('breaks ties by the place in id order, not by the document number', () => {
        expect(all(TWINS, [word('priorite')])).toEqual({ total: 3, docs: [1, 2, 0] })
      })

      it('answers nothing for a word no record holds, or no word at all', () => {
        expect(all(ROADS, [word('inconnu')])).toEqual({ total: 0, docs: [] })
        if (served([])) expect(all(ROADS, [])).toEqual({ total: 0, docs: [] })
      })
    })

  if (strategy.best !== undefined)
    describe(`${name}: match=best`, () => {
      it('puts the records holding every group first, in the all-words order, then the others by coverage', () => {
        // Full: 0, then 3 (body only). Then «vitesse» (3 records) weighs more than «autoroute» (4):
        // 2 (in its title); then 1 and 6, both titling «autoroute», 1 first (6 is an offer).
        expect(best(ROADS, [word('vitesse'), word('autoroute')])).toEqual({
          total: 2,
          docs: [0, 3, 2, 1, 6],
          masks: [3, 3, 1, 2, 2],
          best: 3,
        })
      })

      it('weighs a rarer word more, and a title half again', () => {
        // No record holds both. «probatoire» (2 records) weighs more than «vitesse» (3): 4 (titled)
        // first; 0 and 2 title «vitesse» (1.5 × its weight, more than «probatoire» in a body); then
        // 5, then 3 (body only). 0 and 2 tie on every criterion but id.
        expect(best(ROADS, [word('vitesse'), word('probatoire')])).toEqual({
          total: 2,
          docs: [4, 0, 2, 5, 3],
          masks: [2, 1, 1, 2, 1],
          best: 2,
        })
      })

      it('leaves out a word no record holds, as if it had not been typed', () => {
        expect(best(ROADS, [word('vitesse'), word('autoroute'), word('inconnu')])).toEqual(
          best(ROADS, [word('vitesse'), word('autoroute')]),
        )
      })

      it('counts in total the records holding the best-matched words, with filters', () => {
        const keep = (d: number) => d !== 4
        // Without 4, 0 and 2 (titling «vitesse») come first: total counts the 3 holding «vitesse».
        expect(best(ROADS, [word('vitesse'), word('probatoire')], { offset: 0, limit: 10, keep })).toEqual({
          total: 3,
          docs: [0, 2, 5, 3],
          masks: [1, 1, 2, 1],
          best: 1,
        })
      })

      it('reads aliases of several words and forms as one group each', () => {
        const moto = aliased('moto', ['motocyclette'], ['deux', 'roue'])
        // «casque» is in every record (lighter than the alias group, in three): 1, 2, 0 hold both; 3 «casque» only.
        expect(best(HELMETS, [word('casque'), moto])).toEqual({
          total: 3,
          docs: [1, 2, 0, 3],
          masks: [3, 3, 3, 1],
          best: 3,
        })
      })

      it('puts the record holding every group first even when it holds them only in its body (full in body)', () => {
        const groups = [word('radar'), word('mobile'), word('vitesse')]
        // 2 alone holds the three; then 0 and 1 (both titles, equal bodies: by id).
        expect(best(FULL_IN_BODY, groups, { offset: 0, limit: 2 })).toEqual({
          total: 1,
          docs: [2, 0],
          masks: [7, 3],
          best: 7,
        })
        expect(best(FULL_IN_BODY, groups, { offset: 1, limit: 2 })).toEqual({
          total: 1,
          docs: [0, 1],
          masks: [3, 3],
          best: 7,
        })
      })

      it('answers nothing when no record holds any word', () => {
        expect(best(ROADS, [word('inconnu'), word('absent')])).toEqual({
          total: 0,
          docs: [],
          masks: [],
          best: 0,
        })
      })
    })
}
