/**
 * The corpus generator at sizes the unit tier does without: 2 000 records all valid with unique ids
 * and urls, and 100 000 distinct ids; generate.test.ts checks the same over a tenth of them.
 */
import { describe, it } from 'vitest'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { expectDistinctIds, expectValidUniqueRecords } from '../support/properties/corpus.js'

const { records: sample } = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()

describe('CorpusGenerator, at scale', () => {
  it('writes 2 000 records that all pass the record schema, with unique ids and urls', () => {
    expectValidUniqueRecords(new CorpusGenerator({ sample, seed: 'test' }), 2_000)
  })
})

describe('sequenceHex, at scale', () => {
  it('is a bijection: distinct sequence numbers give distinct 16-hex ids', () => {
    expectDistinctIds(100_000)
  })
})
