import { describe, expect, it } from 'vitest'
import { BUNDLED_NEGATIONS, NegationTable } from './negations.js'
import { ignoredWords } from './stop-words.js'
import { tokenize } from './tokenize.js'

/** The words of `q` a French query keeps once the negation phrases are read. */
function kept(q: string): string[] {
  const words = tokenize(q)
  const ignored = BUNDLED_NEGATIONS.keep(words, ignoredWords(words))
  return words.filter((_, i) => !ignored[i])
}

describe('negation and quantity as query structure (data/search/negations.json)', () => {
  it('keeps the structure words of a phrase that reads them', () => {
    expect(kept("je n'ai plus aucun point")).toEqual(['plus', 'aucun', 'point'])
    expect(kept("il n'y a aucun panneau au carrefour")).toEqual(['aucun', 'panneau', 'carrefour'])
    expect(kept("on m'a retiré tous mes points")).toEqual(['retire', 'tous', 'point'])
  })

  it('reads « trop près » as a phrase, and the letter « a » as the « A » disc only beside its words', () => {
    expect(kept('je roule trop près de la voiture')).toEqual(['roule', 'trop', 'pres', 'voiture'])
    expect(kept('une école près de chez moi')).toEqual(['ecole', 'pres'])
    expect(kept('enlever le A rouge')).toEqual(['enlever', 'a', 'rouge'])
    expect(kept('elle a une voiture rouge')).toEqual(['voiture', 'rouge'])
  })

  it('leaves a structure word outside every phrase a filler', () => {
    expect(kept('plus de 7 jours')).toEqual(['7', 'jour'])
    expect(kept('conduire sans lunettes')).toEqual(['conduire', 'lunette'])
    expect(kept('après une soirée')).toEqual(['soiree'])
  })

  it('reads a phrase on its significant and structure words, skipping other fillers', () => {
    // « eu » and « le » are skipped: the phrase is two words long in the query's kept words.
    const match = BUNDLED_NEGATIONS.match(tokenize('jamais permis'), 0)
    expect(match?.length).toBe(2)
    expect(match?.also.map((p) => p.text)).toEqual(['conduire sans permis', 'défaut de permis'])
  })

  it('refuses a phrase without a structure word: it belongs in the aliases', () => {
    const file = {
      version: 1,
      about: 'test',
      words: { words: ['sans'], reason: 'a test of the file check' },
      phrases: [{ when: ['zéro point'], also: ['solde nul'], reason: 'a test of the file check' }],
    }
    expect(() => new NegationTable(file)).toThrow(
      'negations: "zéro point" holds no structure word; it belongs in aliases.json',
    )
  })
})
