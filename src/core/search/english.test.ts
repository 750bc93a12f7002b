import { describe, expect, it } from 'vitest'
import { BUNDLED_ENGLISH, loadEnglish } from './english.js'
import { tokenize } from './tokenize.js'

const indexedFrench = new Set(tokenize('permis points amende fine vitesse autoroute ans lyon voiture car'))
const isEnglish = (q: string) => BUNDLED_ENGLISH.isEnglish(tokenize(q), (w) => indexedFrench.has(w))

describe('the English-query mode', () => {
  it('reads a question in English as English', () => {
    expect(isEnglish('can I lose all my points')).toBe(true)
    expect(isEnglish('what is the speed limit on the motorway')).toBe(true)
    expect(isEnglish('how long does the probationary licence last')).toBe(true)
    expect(isEnglish('fine for using a phone while driving')).toBe(true)
  })

  it('reads a French query as French, even with an English word in it', () => {
    expect(isEnglish('permis à 17 ans in Lyon')).toBe(false)
    expect(isEnglish("je n'ai plus aucun point")).toBe(false)
    expect(isEnglish('la voiture est fine')).toBe(false)
    expect(isEnglish('speed limit')).toBe(false)
    expect(isEnglish('car je roule vite')).toBe(false)
  })

  it('reads two English glossary phrases no French record holds as English, without function words', () => {
    expect(isEnglish('penalties speeding')).toBe(true)
  })

  it('reads glossary phrases and nothing else as English when one of them is foreign (« speeding fine »)', () => {
    expect(isEnglish('speeding fine')).toBe(true)
    expect(isEnglish('red light fine')).toBe(true)
    // One phrase alone stays French, and so do French words the glossary also holds.
    expect(isEnglish('speed limit')).toBe(false)
    expect(isEnglish('amende points')).toBe(false)
    expect(isEnglish('speeding fine lyon')).toBe(false)
  })

  it('drops English function words only in English queries, and keeps English words French drops (« car »)', () => {
    expect(BUNDLED_ENGLISH.isIgnorableInEnglish('does')).toBe(true)
    expect(BUNDLED_ENGLISH.isIgnorableInEnglish('an')).toBe(true)
    expect(BUNDLED_ENGLISH.isIgnorableInEnglish('car')).toBe(false)
    expect(BUNDLED_ENGLISH.isIgnorableInEnglish('le')).toBe(true)
  })

  it('reads a whole phrase with its function words, and only in a row (« lose all your points »)', () => {
    const readOf = (q: string) => {
      const words = tokenize(q)
      const ignorable = BUNDLED_ENGLISH.keep(
        words,
        words.map((w) => BUNDLED_ENGLISH.isIgnorableInEnglish(w)),
      )
      const kept = words.filter((_, i) => !ignorable[i])
      return BUNDLED_ENGLISH.match(kept, 0)?.also.map((p) => p.text)
    }
    expect(readOf('lose all your points')).toEqual(['solde de points nul', 'zéro point'])
    // Without « all », « lose » is the « retrait » of points, not the zero-points rule.
    expect(readOf('lose your points')).toEqual(['perte', 'perdre', 'retrait'])
    // « how much » with its verb asks an amount to pay; before a noun it asks none.
    expect(readOf('how much is the fine')).toEqual(['prix', 'coût', 'tarif', 'amende'])
    expect(readOf('how much alcohol') ?? []).not.toContain('prix')
  })

  it('loads the bundled file, every glossary entry with its reason', () => {
    expect(loadEnglish().version).toBeGreaterThan(0)
    const words = tokenize('fine')
    expect(BUNDLED_ENGLISH.glossary.match(words, 0)?.also.map((p) => p.text)).toEqual(['amende'])
  })
})
