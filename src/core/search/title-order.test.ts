import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  expectEveryPairOrdered,
  expectOneCharacterApartOrdered,
  expectRandomTitlesOrdered,
} from '../../../test/support/properties/title-order.js'
import type { Fact } from '../records/record.js'
import { primaryKey } from './title-order.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records

// A tenth of the titles, for a quick check: title-order.scale.test.ts orders every pair of the
// sample's titles, 4 000 random titles and 3 000 pairs one character apart.
describe('titles in French collation', () => {
  it('orders every pair of the first 30 sample titles as the collator does', () => {
    expectEveryPairOrdered(sample.slice(0, 30).map((record) => record.title))
  })

  it('orders random titles of letters, marks, ligatures, digits and punctuation as the collator does', () => {
    expectRandomTitlesOrdered(400)
  })

  it('orders titles that differ in one character only as the collator does', () => {
    expectOneCharacterApartOrdered(300)
  })

  it('keys the titles it can, and leaves the others to the collator', () => {
    expect(primaryKey('Priorité à droite : le panneau AB2')).toBeDefined()
    expect(primaryKey('Cœur')).toBe(primaryKey('coeur'))
    expect(primaryKey('Côte')).toBe(primaryKey('cote'))
    expect(primaryKey('L’alcool')).toBeUndefined()
    expect(primaryKey('135 €')).toBeUndefined()
  })
})
