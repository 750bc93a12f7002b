import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import type { Fact } from '../records/record.js'
import { PREPARE_DEFAULTS } from './prepared-answers.js'
import { RecordIndex, toIndexQuery, withPreparedAnswers, type IndexQuery } from './record-index.js'
import { SnapshotBuilder } from './snapshot-builder.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const builder = new SnapshotBuilder('records')
;[...sample, ...new CorpusGenerator({ sample, seed: 'prepared' }).records(1_000)].forEach((r, i) =>
  builder.add(r, `record ${i}`),
)
const data = builder.finish()
const options = { minDocuments: 200, maxWords: 100, depth: 60 }
const plain = new RecordIndex(data)
const prepared = new RecordIndex(withPreparedAnswers(data, options))

/** What a client sees of an answer. */
const answer = (index: RecordIndex, query: IndexQuery) => {
  const page = index.search(query)
  return { total: page.total, ids: page.results.map((r) => r.record.id), interpretation: page.interpretation }
}

describe('answers prepared at build time', () => {
  it('prepares the words held by enough records, and nothing in a snapshot too small to hold any', () => {
    expect(prepared.preparedAnswers).toBeGreaterThan(20)
    expect(
      new RecordIndex(withPreparedAnswers(data, { ...options, minDocuments: data.count + 1 }))
        .preparedAnswers,
    ).toBe(0)
    // By default, only words of very large snapshots: a few thousand records read fast enough.
    expect(new RecordIndex(withPreparedAnswers(data)).preparedAnswers).toBe(0)
    expect(
      new RecordIndex(withPreparedAnswers(data, { minDocuments: PREPARE_DEFAULTS.minDocuments / 1_000 }))
        .preparedAnswers,
    ).toBeGreaterThan(0)
  })

  it('answers every query as a search computed then would, prepared or not', () => {
    // The words typed as people type them, pages inside and past what was prepared, each filter (prepared too).
    const words = [
      'conduite',
      'Conduite',
      'permis',
      'PERMIS',
      'vitesse',
      'route',
      'la',
      'le',
      'de',
      'véhicule',
      'vehicules',
      'examen',
      'permsi',
      'code de la route',
    ]
    const pages = [
      { limit: 10, offset: 0 },
      { limit: 50, offset: 0 },
      { limit: 10, offset: 50 },
      { limit: 50, offset: 40 },
      { limit: 1, offset: 1_000 },
    ]
    for (const q of words)
      for (const page of pages)
        for (const filter of [
          {},
          { kind: 'fact' as const },
          { kind: 'lesson' as const },
          { region: 'france' as const },
          { kind: 'article' as const, region: 'france' as const },
        ]) {
          const query = toIndexQuery({ q, ...page, ...filter })
          expect(answer(prepared, query), JSON.stringify(query)).toEqual(answer(plain, query))
        }
  })

  it('serves a prepared word from what was prepared', () => {
    // The proof that the path is taken: a prepared answer altered after the fact is what is served.
    const withAnswers = withPreparedAnswers(data, options)
    const altered = new RecordIndex({
      ...withAnswers,
      prepared: { ...withAnswers.prepared!, totals: withAnswers.prepared!.totals.map(() => 7) },
    })
    expect(altered.search(toIndexQuery({ q: 'permis', limit: 10, offset: 0 })).total).toBe(7)
    // And under a filter, prepared in the same pass: a kind, the region, both.
    for (const filter of [
      { kind: 'fact' as const },
      { region: 'france' as const },
      { kind: 'lesson' as const, region: 'france' as const },
    ])
      expect(altered.search(toIndexQuery({ q: 'permis', limit: 10, offset: 0, ...filter })).total).toBe(7)
    // A query of two words is not prepared: searched as ever.
    expect(altered.search(toIndexQuery({ q: 'permis conduire', limit: 10, offset: 0 })).total).not.toBe(7)
  })
})
