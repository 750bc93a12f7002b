import { describe, expect, it } from 'vitest'
import { fold, significantWords, tokenize } from './tokenize.js'

describe('fold', () => {
  it.each([
    ['Écoles À Pied', 'ecoles a pied'],
    ['cœur Œil', 'coeur oeil'],
    ['Lætitia', 'laetitia'],
    ['ﬁn', 'fin'], // compatibility ligature, NFKD
    ['ÇA', 'ca'],
  ])('%s → %s', (input, folded) => expect(fold(input)).toBe(folded))
})

describe('tokenize', () => {
  it('drops French elisions written with either apostrophe', () => {
    expect(tokenize("l'autoroute d’alcoolémie qu'il n'est s'arrêter j'ai c'est m'a t'es")).toEqual([
      'autoroute', 'alcoolemie', 'il', 'est', 'arreter', 'ai', 'est', 'a', 'es',
    ])
  })
  it('keeps single letters that are words (permis C, permis D)', () => {
    expect(tokenize('permis C et permis D')).toEqual(['permi', 'c', 'et', 'permi', 'd'])
  })
  it('splits on hyphens, apostrophes inside words, and punctuation', () => {
    expect(tokenize('R412-6-1 : aujourd’hui, porte-à-faux!')).toEqual(['r412', '6', '1', 'aujourd', 'hui', 'porte', 'a', 'fau'])
  })
  it('folds light French plurals, the same for singular and plural', () => {
    expect(tokenize('panneaux panneau signaux signal priorités priorité feux feu')).toEqual([
      'panneau', 'panneau', 'signal', 'signal', 'priorite', 'priorite', 'feu', 'feu',
    ])
    expect(tokenize('bus plus mois pass 3PMSF R412 eaux eau')).toEqual(['bus', 'plus', 'mois', 'pass', '3pmsf', 'r412', 'eau', 'eau'])
  })
})

describe('significantWords', () => {
  it('drops stop words, accented ones included (à is a)', () => {
    expect(significantWords('La priorité à droite')).toEqual(['priorite', 'droite'])
  })
  it('keeps every word when all are stop words', () => {
    expect(significantWords('à la')).toEqual(['a', 'la'])
  })
  it('de-duplicates', () => {
    expect(significantWords('vitesse Vitesse VITESSE')).toEqual(['vitesse'])
  })
  it('returns nothing for a query without words', () => {
    expect(significantWords(' ?! ')).toEqual([])
  })
})
