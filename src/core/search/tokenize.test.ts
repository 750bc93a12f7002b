import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fold, foldByDefinition, foldPlural, queryTokens, tokenize } from './tokenize.js'

describe('fold', () => {
  it.each([
    ['Écoles À Pied', 'ecoles a pied'],
    ['cœur Œil', 'coeur oeil'],
    ['Lætitia', 'laetitia'],
    ['ﬁn', 'fin'], // compatibility ligature, NFKD
    ['ÇA', 'ca'],
  ])('%s → %s', (input, folded) => expect(fold(input)).toBe(folded))

  it('folds every text of the sample, and odd characters, exactly as the definition does', () => {
    const { records } = JSON.parse(
      readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8'),
    ) as { records: unknown[] }
    const texts = records.map((r) => JSON.stringify(r))
    texts.push('e\u0301te\u0301 ǅ Ǆ ﬀ ² ½ 𝐀𝐁 Ⅻ İstanbul ß ﬆ Ａ Œuvre ÆTHER x\u0308\u0323 émoji 🚗 ק ж Ω')
    for (const text of texts) expect(fold(text)).toBe(foldByDefinition(text))
  })
})

describe('tokenize', () => {
  it('drops French elisions written with either apostrophe', () => {
    expect(tokenize("l'autoroute d’alcoolémie qu'il n'est s'arrêter j'ai c'est m'a t'es")).toEqual([
      'autoroute',
      'alcoolemie',
      'il',
      'est',
      'arreter',
      'ai',
      'est',
      'a',
      'es',
    ])
  })
  it('keeps single letters that are words (permis C, permis D)', () => {
    expect(tokenize('permis C et permis D')).toEqual(['permi', 'c', 'et', 'permi', 'd'])
  })
  it('splits on hyphens, apostrophes inside words, and punctuation', () => {
    expect(tokenize('R412-6-1 : aujourd’hui, porte-à-faux!')).toEqual([
      'r412',
      '6',
      '1',
      'aujourd',
      'hui',
      'porte',
      'a',
      'fau',
    ])
  })
  it('folds light French plurals, the same for singular and plural', () => {
    expect(tokenize('panneaux panneau signaux signal priorités priorité feux feu')).toEqual([
      'panneau',
      'panneau',
      'signal',
      'signal',
      'priorite',
      'priorite',
      'feu',
      'feu',
    ])
    expect(tokenize('bus plus mois pass 3PMSF R412 eaux eau')).toEqual([
      'bus',
      'plus',
      'mois',
      'pass',
      '3pmsf',
      'r412',
      'eau',
      'eau',
    ])
  })
})

describe('foldPlural', () => {
  it('leaves verb forms and words that only look like plurals alone, so they meet no other word', () => {
    expect(['peux', 'veux', 'deux', 'ceux', 'mieux', 'sommes'].map(foldPlural)).toEqual([
      'peux',
      'veux',
      'deux',
      'ceux',
      'mieux',
      'sommes',
    ])
    expect(foldPlural('peux')).not.toBe(foldPlural('peu'))
    expect(foldPlural('sommes')).not.toBe(foldPlural('somme'))
  })
})

describe('queryTokens', () => {
  it('keeps what was typed next to each folded word, elisions dropped', () => {
    expect(queryTokens("L'Alcoolémie au volant, c'est-à-dire ?")).toEqual([
      { word: 'alcoolemie', typed: 'Alcoolémie' },
      { word: 'au', typed: 'au' },
      { word: 'volant', typed: 'volant' },
      { word: 'est', typed: 'est' },
      { word: 'a', typed: 'à' },
      { word: 'dire', typed: 'dire' },
    ])
  })
  it('folds exactly as tokenize does, decomposed accents and ligatures included', () => {
    const q = 'Cœur e\u0301tat PANNEAUX R412-6 d’urgence'
    expect(queryTokens(q).map((t) => t.word)).toEqual(tokenize(q))
    expect(queryTokens(q).map((t) => t.typed)).toEqual(['Cœur', 'état', 'PANNEAUX', 'R412', '6', 'urgence'])
  })
  it('returns nothing for a query without words', () => {
    expect(queryTokens(' ?! ')).toEqual([])
  })
})
