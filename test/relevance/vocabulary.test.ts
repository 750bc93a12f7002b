/**
 * What folding and word forms do to the sample's real vocabulary (docs/search.md, "Folding" and
 * "Word forms"): no two distinct words fold together unless the docs say so, the form groups are
 * the ones docs/search-forms.md lists, and the harmful groups a stemmer makes stay apart.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { loadWordForms } from '../../src/core/search/forms.js'
import { foldPlural } from '../../src/core/search/tokenize.js'
import { sampleFormGroupsMarkdown, surfaceWords } from './vocabulary.js'

const { records } = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
const forms = loadWordForms()
const docs = (file: string) => readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8')

/**
 * Words ending like a French plural (-s, -x) that are not plurals, so their folding could meet
 * another word: verb forms, invariable nouns and adverbs. Checked against the sample below.
 */
const NOT_PLURALS = [
  'peux', 'veux', 'deux', 'ceux', 'mieux', 'cours', 'fonds', 'temps', 'corps', 'permis', 'acces', 'exces', 'proces',
  'succes', 'secours', 'parcours', 'concours', 'recours', 'discours', 'dessous', 'dessus', 'alors', 'apres', 'depuis',
  'jamais', 'toujours', 'plusieurs', 'divers', 'travers', 'envers', 'parfois', 'toutefois', 'autrefois', 'frais',
  'mauvais', 'francais', 'anglais', 'epais', 'compris', 'assis', 'devis', 'poids', 'dehors', 'relais', 'progres',
  'expres', 'tandis', 'ailleurs', 'refus', 'repos', 'propos', 'verglas', 'embarras', 'hormis', 'paradis', 'precis',
  'remords', 'puits', 'avis', 'jadis', 'obtus', 'inclus', 'exclus', 'confus', 'dispos', 'heureux', 'dangereux',
]

/** Folds the docs accept, each with the other word it meets (docs/search.md, "Folding"). */
const DOCUMENTED_FOLDS: Record<string, string> = { fonds: 'fond' }

describe('folding on the sample vocabulary', () => {
  const words = surfaceWords(records)
  const byFold = new Map<string, string[]>()
  for (const w of words) byFold.set(foldPlural(w), [...(byFold.get(foldPlural(w)) ?? []), w])

  it('folds peux and peu apart', () => {
    expect(words).toContain('peux')
    expect(words).toContain('peu')
    expect(foldPlural('peux')).not.toBe(foldPlural('peu'))
  })

  it('merges only a word with its own plural (-s, -x, -aux)', () => {
    for (const [key, group] of byFold) {
      for (const w of group) expect([key, `${key}s`, `${key}x`, key.replace(/al$/, 'aux')], w).toContain(w)
    }
  })

  it('never folds a word that is not a plural onto another word, but for the documented folds', () => {
    const met = NOT_PLURALS.filter((w) => words.has(w)).flatMap((w) => byFold.get(foldPlural(w))!.filter((o) => o !== w).map((o) => [w, o]))
    expect(Object.fromEntries(met)).toEqual(DOCUMENTED_FOLDS)
  })

  it('says so in docs/search.md for each documented fold', () => {
    for (const [word, other] of Object.entries(DOCUMENTED_FOLDS)) expect(docs('search.md')).toMatch(new RegExp(`${word}.{0,40}${other}`))
  })
})

describe('word forms on the sample vocabulary', () => {
  it('are the groups docs/search-forms.md lists (regenerate it with npm run word-forms)', () => {
    expect(docs('search-forms.md')).toBe(sampleFormGroupsMarkdown(records, forms))
  })

  it.each([
    ['station', 'stationnement'],
    ['vol', 'volant'],
    ['voler', 'volant'],
    ['rat', 'rater'],
    ['gare', 'garer'],
    ['droit', 'droite'],
    ['passage', 'passager'],
    ['point', 'pointe'],
    ['second', 'seconde'],
    ['avant', 'avantage'],
    ['depart', 'departement'],
    ['equipe', 'equipement'],
    ['double', 'doubler'],
    ['entre', 'entree'],
    ['commun', 'commune'],
    ['trait', 'traitement'],
    ['precis', 'precieux'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(forms.key(foldPlural(a))).not.toBe(forms.key(foldPlural(b)))
  })

  it.each([
    ['stationner', 'stationnement'],
    ['depasser', 'depassement'],
    ['freiner', 'freinage'],
    ['conduire', 'conduite'],
    ['interdiction', 'interdit'],
    ['obligatoire', 'obligation'],
    ['handicapees', 'handicape'],
    ['dangereux', 'danger'],
    ['vente', 'vendre'],
  ])('joins %s and %s', (a, b) => {
    expect(forms.key(foldPlural(a))).toBe(forms.key(foldPlural(b)))
  })
})
