/**
 * The canonical-JSON check over 4 000 texts rewritten at random; json-text.test.ts runs the same
 * property over 400, beside the rest of the check's tests.
 */
import { readFileSync } from 'node:fs'
import { describe, it } from 'vitest'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import { expectRewritesJudgedRightly } from '../../../test/support/properties/json-rewrites.js'
import type { Fact } from './record.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const generated = [...new CorpusGenerator({ sample, seed: 'json-text' }).records(1_000)]

describe('isCanonicalJson, at scale', () => {
  it('never calls a text canonical that is not, over texts rewritten at random', () => {
    expectRewritesJudgedRightly(sample, generated, 4_000)
  })
})
