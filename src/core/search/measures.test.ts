/**
 * Numbers and units in queries (docs/search.md, "Numbers and units"): a number with its unit is one
 * required word, found as the records write it; on small synthetic records, so each case says which
 * spelling the record holds.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { convertedMeasures, numberSpellings, splitJoinedWords, withMeasures } from './measures.js'
import { RecordIndex, toIndexQuery } from './record-index.js'
import { queryTokens } from './tokenize.js'

const sample = JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as
  Fact[] | { records: Fact[] }
const base = (Array.isArray(sample) ? sample : sample.records).find((r) => r.kind === 'fact')!
/** A sample rule with another id, title and text: its sources and dates stay valid. */
const fact = (n: string, title: string, text = 'Règle de circulation.'): Fact => ({
  ...base,
  id: `fait-${n.padStart(16, '0')}`,
  title,
  text,
  description: undefined,
  sources: base.sources.map((source) => ({ ...source, label: 'Code de la route' })),
})

const records = [
  fact(
    '1',
    'Excès de vitesse : amendes selon l’écart',
    'De 20 à moins de 30 km/h au-dessus : 135 € et 2 points.',
  ),
  fact('2', 'Trottinettes électriques : 25 km/h au plus'),
  fact('3', 'Rouler sans assurance : jusqu’à 3 750 € d’amende'),
  fact('4', 'Délit de fuite : trois ans d’emprisonnement'),
  fact('5', 'Angles morts des véhicules de plus de 3,5 tonnes'),
  fact('6', 'Alcoolémie : 0,5 g/l de sang'),
  fact('7', 'Article R412-6 du code de la route', 'Le conducteur doit rester maître de son véhicule.'),
  fact('8', 'Remorque : 3 500 kg pour l’ensemble'),
  fact('9', 'Cession : déclarer la vente sous quinze jours'),
  fact('10', 'Financer son permis : un prêt à un euro par jour'),
]
const index = RecordIndex.build({ records })
const search = (q: string, match: 'all' | 'best' = 'all') =>
  index.search(toIndexQuery({ q, match, limit: 10, offset: 0 }))
const idsOf = (q: string, match: 'all' | 'best' = 'all') =>
  search(q, match).results.map((e) => e.record.id.replace(/^fait-0*/, ''))

describe('a measure is one word of the query', () => {
  it('joins a number and the unit typed after it, with or without spaces, and keeps decimals whole', () => {
    const typed = (q: string) => withMeasures(q, queryTokens(q)).map((t) => t.typed)
    expect(typed('excès de vitesse de 25 km/h')).toEqual(['excès', 'de', 'vitesse', 'de', '25 km/h'])
    expect(typed('alcool 0,5 g / l')).toEqual(['alcool', '0,5 g / l'])
    expect(typed('scooter 50cc')).toEqual(['scooter', '50cc'])
    expect(typed('amende 135 € stationnement')).toEqual(['amende', '135 €', 'stationnement'])
    expect(typed('17 ans')).toEqual(['17', 'ans']) // « ans » is a word the records hold, not a unit
  })

  it('is not read inside a code or a name', () => {
    const typed = (q: string) => withMeasures(q, queryTokens(q)).map((t) => t.typed)
    expect(typed('R412 formation B96')).toEqual(['R412', 'formation', 'B96'])
  })

  it('is one required word, so a record stating the figure with its unit matches', () => {
    const page = search('excès de vitesse 25 km/h')
    expect(page.interpretation!.words).toEqual(['excès', 'vitesse', '25 km/h'])
    expect(page.total).toBe(0) // AND holds: no record holds the excess and the figure
    expect(page.interpretation!.relaxed.map((r) => r.without)).toContain('25 km/h')
    expect(idsOf('trottinette 25 km/h')).toEqual(['2'])
  })

  it('finds the number alone when the unit is a sign the index does not hold (135 €)', () => {
    expect(idsOf('amende 135 euros')).toEqual(['1'])
  })

  it('finds the records’ spellings: thousands groups, small numbers in words, unit names', () => {
    expect(idsOf('amende 3750 euros assurance')).toEqual(['3'])
    expect(idsOf('délit de fuite 3 ans')).toEqual(['4'])
    expect(idsOf('angles morts 3,5 t')).toEqual(['5'])
    expect(idsOf('0,5 g/l')).toEqual(['6'])
    // One is « un », « une », function words no search reads: the unit alone stands for it.
    expect(idsOf('permis 1 euro par jour')).toEqual(['10'])
  })

  it('finds a mass in the other unit: « 3,5 t » is « 3 500 kg », « 3500 kg » is « 3,5 tonnes »', () => {
    expect(idsOf('remorque 3,5t')).toEqual(['8'])
    expect(idsOf('angles morts 3500 kg')).toEqual(['5'])
  })

  it('reads an abbreviation after a number as the word the records write', () => {
    expect(idsOf('vente 15j')).toEqual(['9'])
    expect(search('vente 15j').interpretation!.words).toEqual(['vente', '15', 'jours'])
  })

  it('is never corrected', () => {
    expect(search('vitesse 97 km/h').interpretation!.corrected).toEqual([])
  })

  it('under best match, a record holding the question’s words comes before one holding only the figure', () => {
    expect(idsOf('excès de vitesse de 25 km/h', 'best')[0]).toBe('1')
  })
})

describe('numberSpellings', () => {
  it('writes whole numbers as the records do', () => {
    expect(numberSpellings(['3750'])).toEqual([['3750'], ['3', '750']])
    expect(numberSpellings(['1000000'])).toEqual([['1000000'], ['1', '000', '000']])
    expect(numberSpellings(['2'])).toEqual([['2'], ['deux']])
    expect(numberSpellings(['3'])).toEqual([['3'], ['troi']]) // « trois » as the index folds it
    expect(numberSpellings(['1'])).toEqual([['1']])
    expect(numberSpellings(['0', '5'])).toEqual([['0', '5']])
  })
})

describe('a number joined to a plain word', () => {
  it('is split from it, so « 17ans » is read as « 17 ans »', () => {
    expect(splitJoinedWords('permis 17ans')).toBe('permis 17 ans')
    expect(splitJoinedWords('perdu 6points en 3mois')).toBe('perdu 6 points en 3 mois')
    expect(splitJoinedWords('un 2roues')).toBe('un 2 roues')
  })

  it('writes out an abbreviation typed after a number, joined or not, but not an elision', () => {
    expect(splitJoinedWords('déclaration 15j')).toBe('déclaration 15 jours')
    expect(splitJoinedWords('sens interdit 4pts et 2 sem')).toBe('sens interdit 4 points et 2 semaines')
    expect(splitJoinedWords('quinze 15 J')).toBe('quinze 15 jours')
    expect(splitJoinedWords("le 2 j'ai eu 4 points")).toBe("le 2 j'ai eu 4 points")
    expect(splitJoinedWords('15jours')).toBe('15 jours')
  })

  it('leaves codes, units and words alone', () => {
    expect(splitJoinedWords('article r412 et 3pmsf')).toBe('article r412 et 3pmsf')
    expect(splitJoinedWords('50km/h et 0,5g')).toBe('50km/h et 0,5g')
    expect(splitJoinedWords('ans 17')).toBe('ans 17')
  })
})

describe('convertedMeasures', () => {
  it('gives a mass in the other unit, only where the records write it so', () => {
    expect(convertedMeasures(['3', '5'], ['t'])).toEqual([{ number: ['3500'], unit: ['kg'] }])
    expect(convertedMeasures(['3500'], ['kg'])).toEqual([{ number: ['3', '5'], unit: ['t'] }])
    expect(convertedMeasures(['750'], ['kg'])).toEqual([])
    expect(convertedMeasures(['50'], ['km', 'h'])).toEqual([])
  })
})
