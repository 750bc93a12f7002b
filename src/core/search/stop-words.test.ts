/** The fillers (data/search/fillers.json): words and phrases a question carries that no answer holds. */
import { describe, expect, it } from 'vitest'
import { tokenize } from './tokenize.js'
import { BUNDLED_FILLERS, FillerFileSchema, Fillers, ignoredWords } from './stop-words.js'

const ignored = (q: string) => {
  const words = tokenize(q)
  const flags = ignoredWords(words)
  return { kept: words.filter((_, i) => !flags[i]), dropped: words.filter((_, i) => flags[i]) }
}
/** The words as a query folds them ("permis" is searched as "permi"). */
const folded = (text: string) => tokenize(text)

describe('fillers', () => {
  it('read negation and quantity words as the shape of the question, not as required words', () => {
    expect(ignored("je n'ai plus aucun point").kept).toEqual(folded('point'))
    expect(ignored("je n'ai jamais eu d'accident, rien reçu").kept).toEqual(folded('accident reçu'))
    expect(ignored('combien de temps après une soirée').kept).toEqual(folded('soirée'))
    expect(ignored('rouler sans assurance entre deux villes').kept).toEqual(
      folded('rouler assurance deux villes'),
    )
  })

  it('drop multi-word question phrases as a whole, where their words alone would count', () => {
    expect(ignored("est-ce que j'ai le droit de doubler par la droite").kept).toEqual(
      folded('doubler droite'),
    )
    expect(ignored('que se passe-t-il si je roule sans assurance').kept).toEqual(folded('roule assurance'))
    expect(ignored('au bout de combien de temps récupère-t-on ses points').kept).toEqual(
      folded('récupère points'),
    )
    expect(ignored('à partir de quel âge conduire une trottinette').kept).toEqual(
      folded('âge conduire trottinette'),
    )
    expect(ignored('quelle est la différence entre un stop et un cédez-le-passage').kept).toEqual(
      folded('stop cédez passage'),
    )
  })
  it('keep the same words outside the phrase: « droit » of a right, « temps » of reaction time, « passe » of a pass', () => {
    expect(ignored('droit à l’erreur').kept).toEqual(folded('droit erreur'))
    expect(ignored('temps de réaction').kept).toEqual(folded('temps réaction'))
    expect(ignored('passe sanitaire').kept).toEqual(folded('passe sanitaire'))
  })
  it('drop politeness, SMS question words and English function words an assistant or a learner adds', () => {
    expect(ignored('bonjour svp pk le permis probatoire').kept).toEqual(folded('permis probatoire'))
    expect(ignored('what is the speed limit in France').kept).toEqual(folded('speed limit France'))
  })
  it('keep a listed word after the words named in unless_after: « permis C » is a licence, « c koi » is not', () => {
    expect(ignored('permis c camion').kept).toEqual(folded('permis c camion'))
    expect(ignored('c koi le permis').kept).toEqual(folded('permis'))
  })
  it('give every entry a reason, and refuse a phrase of one word or a word that is not one', () => {
    expect(() =>
      FillerFileSchema.parse({ version: 1, about: '', words: [{ kind: 'sms', words: ['pk'] }], phrases: [] }),
    ).toThrow(/reason/)
    const file = (words: string[], phrases: string[]) =>
      FillerFileSchema.parse({
        version: 1,
        about: '',
        words: [{ kind: 'function', words, reason: 'a reason long enough' }],
        phrases: [{ phrases, reason: 'a reason long enough' }],
      })
    expect(() => new Fillers(file(['ok'], ['seul']))).toThrow(/fewer than two words/)
    expect(() => new Fillers(file(['deux mots'], ['deux mots']))).toThrow(/not one word/)
    expect(BUNDLED_FILLERS.phrases.length).toBeGreaterThan(10)
  })
})
