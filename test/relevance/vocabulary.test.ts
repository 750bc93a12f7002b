/**
 * What folding and word forms do to the sample's real vocabulary (docs/search.md, "Folding" and
 * "Word forms"). Exhaustive rather than by example: every group of distinct words of the records
 * that the index treats as one is computed and compared with docs/search-forms.md, the reviewed
 * list, so a merge no one has read (a verb form folded onto a noun, a new stemmer group) fails here
 * until it is kept apart or reviewed into that list. Harmful merges found that way stay apart below.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { loadWordForms } from '../../src/core/search/forms.js'
import { fold, foldPlural } from '../../src/core/search/tokenize.js'
import { mergeRow, sampleMergesMarkdown, wordMerges, writtenWords } from './vocabulary.js'

const { records } = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
const forms = loadWordForms()
const docs = (file: string) => readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8')
/** The index's key for a written word: accents, plural, form. */
const keyOf = (word: string) => forms.key(foldPlural(fold(word)))

/**
 * Merges of two different words that docs/search.md accepts, each with its reason there ("Folding"):
 * a query on either finds both, and its other words narrow the answer.
 */
const ACCEPTED_MERGES: [string, string][] = [['fonds', 'fond']]

/** Merges the contract's accent folding makes, which docs/search.md names as the contract's choice. */
const CONTRACT_MERGES: [string, string][] = [
  ['côte', 'côté'],
  ['sûr', 'sur'],
  ['dû', 'du'],
]

/** Merges found harmful on review, and kept apart (src/core/search/tokenize.ts, data/search/forms.json). */
const KEPT_APART: [string, string][] = [
  ['peux', 'peu'],
  ['sommes', 'somme'],
]

describe('words the search treats as one, on the sample vocabulary', () => {
  const words = writtenWords(records)
  const merges = wordMerges(records, forms)

  it('are exactly the reviewed groups of docs/search-forms.md (review a new group, then npm run word-forms)', () => {
    const listed = new Set(
      docs('search-forms.md')
        .split('\n')
        .filter((line) => /^\| [^-]/.test(line) && line !== '| key | words |'),
    )
    const computed = new Set(merges.map(mergeRow))
    // Named first, so a failure says which words started or stopped meeting, not just that a long file differs.
    expect({
      notReviewed: [...computed].filter((row) => !listed.has(row)),
      noLongerMerged: [...listed].filter((row) => !computed.has(row)),
    }).toEqual({
      notReviewed: [],
      noLongerMerged: [],
    })
    expect(docs('search-forms.md')).toBe(sampleMergesMarkdown(records, forms))
  })

  it('merges by plural folding only a word with what looks like its own plural (-s, -x, -aux)', () => {
    for (const { words: group } of merges.filter((m) => m.level === 'plurals')) {
      const singular = foldPlural(fold(group[0]!))
      for (const w of group.map(fold))
        expect([singular, `${singular}s`, `${singular}x`, singular.replace(/al$/, 'aux')], w).toContain(w)
    }
  })

  it.each(KEPT_APART)('keeps %s and %s apart', (a, b) => {
    expect(words).toContain(a)
    expect(words).toContain(b)
    expect(keyOf(a)).not.toBe(keyOf(b))
  })

  it.each([...ACCEPTED_MERGES, ...CONTRACT_MERGES])('merges %s and %s, as docs/search.md says', (a, b) => {
    expect(words).toContain(a)
    expect(words).toContain(b)
    expect(keyOf(a)).toBe(keyOf(b))
    expect(docs('search.md')).toMatch(new RegExp(`${a}.{0,40}${b}`))
  })
})

describe('word forms on the sample vocabulary', () => {
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
