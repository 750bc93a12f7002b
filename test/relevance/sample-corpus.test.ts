/**
 * Relevance on the bundled sample corpus: queries a learner would type, with the record that must
 * come first (or be the only hit). Guards the search semantics against regressions on real French text.
 */
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/records/file-source.js'
import { RecordIndex, toSearchQuery } from '../../src/search/record-index.js'

const index = new RecordIndex(await new FileRecordSource(BUNDLED_RECORDS_FILE).load())
const search = (q: string) =>
  index.search(toSearchQuery({ q, limit: 50, offset: 0 })).results.map((e) => e.record.id)

describe('sample corpus relevance', () => {
  it.each([
    ["taux d'alcoolémie", 'fait-b3164bb30e5f01f9'],
    ['vitesse en agglomération', 'fait-643b555e754f953d'],
    ['telephone au volant', 'fait-125b5ac02b35114a'],
    ['manoeuvre', 'page-41ee97e1704ca834'],
    ['panneaux', 'page-d92d78483a06f03f'],
    ['panneau stop', 'fait-2195dd5b0ff4b39d'],
    ['carrefour giratoire', 'expertise-fait-5d155eb2c59dc8f3'],
    ['conduite accompagnée AAC', 'offer-7de0e796a99f38d2'],
    ['ceinture de securite', 'fait-68e612e6f88dbbdd'],
    ['gilet triangle', 'fait-5c2319ee25aed007'],
    ['stationnement tres genant', 'page-3aa38337e589a000'],
  ])('%s → first %s', (q, id) => {
    expect(search(q)[0]).toBe(id)
  })

  it.each([
    ["taux d'alcoolemie permis probatoire", 'fait-caf3b6cc030e3cce'],
    ["circuler sur l'autoroute", 'page-fd75ec70c02a74bb'],
    ['massage cardiaque cœur', 'page-29a82e36007a2ddd'],
    ['REMC', 'page-cb10710a2bcf271e'], // only in a bibliography
    ['zone de rencontre', 'fait-643b555e754f953d'],
    ['soeur', 'offer-7de0e796a99f38d2'], // written "sœur" in the record
    ['Cerema', 'page-fb2c13609e57daaf'], // only in a source label
  ])('%s → only %s', (q, id) => {
    expect(search(q)).toEqual([id])
  })
})
