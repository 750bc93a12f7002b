/**
 * The conjugated verbs a driver types about what happens to them (« je vois », « je cale », « ça
 * vibre »), each asked alone, read something the records hold and are never corrected into
 * another word (issue 46, seventh round): the stemmer folds no verb form, so « vois » was
 * corrected into « voie », « cale » into « calme », « vibre » into « vitre », « bois » into
 * « bons », « paie » into « page ». The aliases read each as the records' word (data/search/aliases.json).
 */
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { RecordIndex, toIndexQuery } from '../../src/core/search/record-index.js'

const index = RecordIndex.build(await new FileRecordSource(BUNDLED_RECORDS_FILE).load())

const SAID = [
  'je vois',
  'on voit mal',
  'je cale',
  'ça vibre',
  'je sors',
  "j'ai renversé",
  "j'ai cogné",
  'je bois',
  "j'ai bu",
  'je paie',
  'on paye',
  'je souffle',
  'je débraye',
  'ça patine',
  'ça sent le brûlé',
]

describe('conjugated verbs a driver types', () => {
  it('each reads something the records hold, and is not corrected into another word', () => {
    const misread = SAID.flatMap((q) => {
      const page = index.search(toIndexQuery({ q, match: 'best', limit: 1, offset: 0 }))
      const interpretation = page.interpretation
      const corrected = interpretation?.corrected ?? []
      const leftOut = interpretation?.left_out ?? []
      return page.total === 0 || corrected.length > 0 || leftOut.length > 0
        ? [{ q, total: page.total, corrected, leftOut }]
        : []
    })
    expect(misread).toEqual([])
  })
})
