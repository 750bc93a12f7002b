import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { needsReverification } from '../records/status.js'
import { RecordIndex } from '../search/record-index.js'
import { Catalogues, reverifyCount } from './catalogue.js'
import { CatalogueSchema } from './schemas.js'

const SAMPLE = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const index = RecordIndex.build({ records: SAMPLE })
const OPTIONS = { requestsPerMinute: 120, contact: 'contact@example.org' }

describe('the count of rules to re-verify', () => {
  it('counts the official rules the pages flag, on the day asked', () => {
    for (const day of ['2026-01-01', '2026-11-28', '2027-06-01', '2030-01-01']) {
      const now = new Date(`${day}T12:00:00Z`)
      expect(reverifyCount(index, now), day).toBe(SAMPLE.filter((r) => needsReverification(r, now)).length)
    }
    expect(reverifyCount(index, new Date('2030-01-01'))).toBe(SAMPLE.filter((r) => r.kind === 'fact').length)
  })

  it('is in the catalogue, valid against its schema, and the catalogue is made again on a new day', () => {
    const catalogues = new Catalogues(OPTIONS)
    const today = catalogues.of(index, new Date('2026-11-28T10:00:00Z'))
    expect(CatalogueSchema.parse(today.value).records.to_reverify).toBe(
      reverifyCount(index, new Date('2026-11-28T10:00:00Z')),
    )
    expect(catalogues.of(index, new Date('2026-11-28T23:59:00Z'))).toBe(today)
    const later = catalogues.of(index, new Date('2027-11-28T00:00:00Z'))
    expect(later).not.toBe(today)
    expect(later.value.records.to_reverify).toBeGreaterThan(today.value.records.to_reverify!)
  })
})
