/**
 * The compiled record check against zod over 2 000 generated records and 6 000 random mutations;
 * fast-parse.test.ts runs the same properties over a tenth of them.
 */
import { readFileSync } from 'node:fs'
import { describe, it } from 'vitest'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import { expectAcceptsEvery, expectMutationsAgree } from '../../../test/support/properties/fast-parse.js'
import type { Fact } from './record.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const generated = [...new CorpusGenerator({ sample, seed: 'fast-parse' }).records(2_000)]

describe('the compiled record check, at scale', () => {
  it('accepts every sample and generated record, as zod gives it', () => {
    expectAcceptsEvery([...sample, ...generated])
  })

  it('agrees with zod on records mutated at random, and still accepts most of the valid ones', () => {
    expectMutationsAgree(sample, generated, 6_000)
  })
})
