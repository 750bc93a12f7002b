import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import { expectAcceptsEvery, expectMutationsAgree } from '../../../test/support/properties/fast-parse.js'
import { compileFastParse, UNSURE } from './fast-parse.js'
import { RecordFieldsSchema, type Fact } from './record.js'
import { fastParseRecord, RecordValidator } from './validate.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
// A few generated records and mutations, for a quick check: fast-parse.scale.test.ts runs the same
// properties over 2 000 generated records and 6 000 mutations.
const generated = [...new CorpusGenerator({ sample, seed: 'fast-parse' }).records(200)]

describe('the compiled record check', () => {
  it('compiles every part of the record schema', () => {
    expect(compileFastParse(RecordFieldsSchema).unsupported).toEqual([])
  })

  it('accepts every sample and generated record, as zod gives it', () => {
    expectAcceptsEvery([...sample, ...generated])
  })

  it('agrees with zod on records mutated at random, and still accepts most of the valid ones', () => {
    expectMutationsAgree(sample, generated, 600)
  })

  it('leaves to zod what it does not reproduce: a field present as undefined, a __proto__ key', () => {
    const record = structuredClone(sample[0]!) as Record<string, unknown>
    expect(fastParseRecord({ ...record, description: undefined })).toBeUndefined()
    expect(
      fastParseRecord(JSON.parse(JSON.stringify(record).replace('{', '{"__proto__":{"x":1},'))),
    ).toBeUndefined()
    expect(fastParseRecord(record)).toBeDefined()
  })

  it('refuses a record that breaks a rule spanning fields, which zod then describes', () => {
    const record = {
      ...structuredClone(generated.find((r) => r.kind === 'fact')!),
      verified_at: undefined,
      verification_scope: 'Relecture',
    }
    delete record.verified_at
    expect(fastParseRecord(record)).toBeUndefined()
    const validator = new RecordValidator('test')
    expect(validator.check(record, 'line 1')).toBeUndefined()
    expect(validator.problems().reported).toEqual([
      `line 1 (id "${record.id}"): field "verification_scope": is only allowed together with verified_at`,
    ])
  })
})

describe('compileFastParse', () => {
  it('names what it cannot reproduce, and answers UNSURE there', () => {
    const schema = z
      .object({ email: z.email(), n: z.number().multipleOf(2), s: z.string() })
      .refine(() => true)
    const { parse, unsupported } = compileFastParse(schema)
    expect(unsupported).toEqual(['(root): refinements on an object'])
    expect(parse({ email: 'a@b.fr', n: 2, s: '' })).toBe(UNSURE)
    const fields = compileFastParse(
      z.object({ email: z.email(), n: z.number().multipleOf(2), s: z.string() }),
    )
    expect(fields.unsupported).toEqual([
      'email: the string format "email"',
      'n: the number check "multiple_of" ()',
    ])
    expect(fields.parse({ email: 'a@b.fr', n: 2, s: '' })).toBe(UNSURE)
  })

  it('drops the unknown keys of a plain object, keeps a loose one’s after its own, refuses a strict one’s', () => {
    const shape = { b: z.string().trim(), a: z.number().optional() }
    expect(JSON.stringify(compileFastParse(z.object(shape)).parse({ x: 1, a: 2, b: ' t ' }))).toBe(
      '{"b":"t","a":2}',
    )
    expect(JSON.stringify(compileFastParse(z.looseObject(shape)).parse({ x: 1, a: 2, b: ' t ' }))).toBe(
      '{"b":"t","a":2,"x":1}',
    )
    expect(compileFastParse(z.strictObject(shape)).parse({ x: 1, a: 2, b: 't' })).toBe(UNSURE)
    expect(compileFastParse(z.strictObject(shape)).parse({ b: 't' })).toEqual({ b: 't' })
  })

  it('answers a union by the option of the value’s JSON kind, and refuses a union it cannot tell apart', () => {
    const union = compileFastParse(z.union([z.string().trim(), z.record(z.string(), z.unknown())]))
    expect(union.parse(' x ')).toBe('x')
    expect(union.parse({ a: [1] })).toEqual({ a: [1] })
    expect(union.parse(3)).toBe(UNSURE)
    expect(compileFastParse(z.union([z.string(), z.string().trim()])).unsupported).toEqual([
      '(root): a union of options of one JSON kind',
    ])
  })
})
