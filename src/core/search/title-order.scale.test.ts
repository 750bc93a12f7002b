/**
 * Titles in French collation against Intl.Collator: every pair of the sample's titles (about 70 000),
 * 4 000 random titles and 3 000 pairs one character apart; title-order.test.ts runs the same
 * properties over a tenth of them.
 */
import { readFileSync } from 'node:fs'
import { describe, it } from 'vitest'
import {
  expectEveryPairOrdered,
  expectOneCharacterApartOrdered,
  expectRandomTitlesOrdered,
} from '../../../test/support/properties/title-order.js'
import type { Fact } from '../records/record.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records

describe('titles in French collation, at scale', () => {
  it('orders every pair of the sample titles as the collator does', () => {
    expectEveryPairOrdered(sample.map((record) => record.title))
  })

  it('orders random titles of letters, marks, ligatures, digits and punctuation as the collator does', () => {
    expectRandomTitlesOrdered(4_000)
  })

  it('orders titles that differ in one character only as the collator does', () => {
    expectOneCharacterApartOrdered(3_000)
  })
})
