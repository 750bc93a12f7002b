import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import { createRng, hashSeed, sfc32, type Rng } from '../../../scripts/corpus/prng.js'
import { compileFastParse, isPlainHttpUrl, UNSURE } from './fast-parse.js'
import { FactSchema, RecordFieldsSchema, type Fact } from './record.js'
import { fastParseRecord, RecordValidator } from './validate.js'

const sample = (JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }).records
const generated = [...new CorpusGenerator({ sample, seed: 'fast-parse' }).records(2_000)]

/**
 * The one promise of the compiled check: what it accepts, FactSchema accepts, with the same JSON
 * (keys, their order, trims). Returns whether the compiled check accepted.
 */
function agreesWithZod(value: unknown): boolean {
  const fast = fastParseRecord(value)
  if (fast === undefined) return false
  const zod = FactSchema.safeParse(value)
  expect(zod.success, `zod refuses what the compiled check accepted: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(true)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data))
  return true
}

describe('the compiled record check', () => {
  it('compiles every part of the record schema', () => {
    expect(compileFastParse(RecordFieldsSchema).unsupported).toEqual([])
  })

  it('accepts every sample and generated record, as zod gives it', () => {
    for (const record of [...sample, ...generated]) expect(agreesWithZod(structuredClone(record))).toBe(true)
  })

  it('agrees with zod on records mutated at random, and still accepts most of the valid ones', () => {
    const rng = createRng(sfc32(hashSeed('fast-parse mutations')))
    let accepted = 0
    let valid = 0
    for (let n = 0; n < 6_000; n++) {
      const base = rng.pick(n % 3 === 0 ? sample : generated)
      // Through JSON text, as a source gives them: a `__proto__` key is then an own key.
      const value: unknown = JSON.parse(mutate(JSON.stringify(base), rng))
      if (agreesWithZod(value)) accepted++
      if (FactSchema.safeParse(value).success) valid++
    }
    // Not a check that passes by refusing everything: valid mutations (reordered keys, extra keys in
    // open objects, padded strings zod trims…) mostly take the fast path.
    expect(valid).toBeGreaterThan(1_000)
    expect(accepted / valid).toBeGreaterThan(0.5)
  })

  it('leaves to zod what it does not reproduce: a field present as undefined, a __proto__ key', () => {
    const record = structuredClone(sample[0]!) as Record<string, unknown>
    expect(fastParseRecord({ ...record, description: undefined })).toBeUndefined()
    expect(fastParseRecord(JSON.parse(JSON.stringify(record).replace('{', '{"__proto__":{"x":1},')))).toBeUndefined()
    expect(fastParseRecord(record)).toBeDefined()
  })

  it('refuses a record that breaks a rule spanning fields, which zod then describes', () => {
    const record = { ...structuredClone(generated.find((r) => r.kind === 'fact')!), verified_at: undefined, verification_scope: 'Relecture' }
    delete record.verified_at
    expect(fastParseRecord(record)).toBeUndefined()
    const validator = new RecordValidator('test')
    expect(validator.check(record, 'line 1')).toBeUndefined()
    expect(validator.problems().reported).toEqual([`line 1 (id "${record.id}"): field "verification_scope": is only allowed together with verified_at`])
  })
})

describe('compileFastParse', () => {
  it('names what it cannot reproduce, and answers UNSURE there', () => {
    const schema = z.object({ email: z.email(), n: z.number().multipleOf(2), s: z.string() }).refine(() => true)
    const { parse, unsupported } = compileFastParse(schema)
    expect(unsupported).toEqual(['(root): refinements on an object'])
    expect(parse({ email: 'a@b.fr', n: 2, s: '' })).toBe(UNSURE)
    const fields = compileFastParse(z.object({ email: z.email(), n: z.number().multipleOf(2), s: z.string() }))
    expect(fields.unsupported).toEqual(['email: the string format "email"', 'n: the number check "multiple_of" ()'])
    expect(fields.parse({ email: 'a@b.fr', n: 2, s: '' })).toBe(UNSURE)
  })

  it('drops the unknown keys of a plain object, keeps a loose one’s after its own, refuses a strict one’s', () => {
    const shape = { b: z.string().trim(), a: z.number().optional() }
    expect(JSON.stringify(compileFastParse(z.object(shape)).parse({ x: 1, a: 2, b: ' t ' }))).toBe('{"b":"t","a":2}')
    expect(JSON.stringify(compileFastParse(z.looseObject(shape)).parse({ x: 1, a: 2, b: ' t ' }))).toBe('{"b":"t","a":2,"x":1}')
    expect(compileFastParse(z.strictObject(shape)).parse({ x: 1, a: 2, b: 't' })).toBe(UNSURE)
    expect(compileFastParse(z.strictObject(shape)).parse({ b: 't' })).toEqual({ b: 't' })
  })

  it('answers a union by the option of the value’s JSON kind, and refuses a union it cannot tell apart', () => {
    const union = compileFastParse(z.union([z.string().trim(), z.record(z.string(), z.unknown())]))
    expect(union.parse(' x ')).toBe('x')
    expect(union.parse({ a: [1] })).toEqual({ a: [1] })
    expect(union.parse(3)).toBe(UNSURE)
    expect(compileFastParse(z.union([z.string(), z.string().trim()])).unsupported).toEqual(['(root): a union of options of one JSON kind'])
  })
})

describe('isPlainHttpUrl', () => {
  const url = z.url({ protocol: /^https?$/, hostname: z.regexes.domain })
  /** What zod gives for `value`, when it accepts it unchanged. */
  const zodKeeps = (value: string) => {
    const result = url.safeParse(value)
    return result.success && result.data === value
  }

  it('accepts only URLs zod accepts unchanged', () => {
    const accepted = [
      'https://code-et-conduite.example/regles/priorite-a-droite',
      'http://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000006842256/',
      'https://EXAMPLE.com/A?b=c&d=%C3%A9#frag',
      'https://a-b.c-d.fr/x;y=z/(1)/*,!$\'@:~',
      'https://example.com?q',
      'https://example.com#top',
      'https://1.2.3.4.example/',
    ]
    const refused = [
      'ftp://example.com/',
      'https:/example.com',
      'https//example.com',
      'javascript:alert(1)',
      'https://localhost/',
      'https://127.0.0.1/',
      'https://1.2.3.4/',
      'https://0x7f.0.0.1/',
      'https://example.com./',
      'https://-example.com/',
      'https://example-.com/',
      'https://example.c/',
      'https://xn--nxasmq6b.com/',
      'https://www.xn--bcher-kva.example/',
      'https://example.com:8080/',
      'https://user@example.com/',
      'https://example.com/a b',
      'https://example.com/a\tb',
      ' https://example.com/',
      'https://example.com/\n',
      'https://exa\nmple.com/',
      'https://example.com\\@evil.com/',
      'https://example.com/é',
      'https://bücher.example/',
      'https://example.com/"quoted"',
      'https://example.com/<tag>',
      `https://${'a'.repeat(64)}.com/`,
      `https://${'a.'.repeat(126)}com/`,
      'HTTPS://example.com/',
      'https://',
      'https://?x',
    ]
    for (const value of accepted) expect([value, isPlainHttpUrl(value, z.regexes.domain), zodKeeps(value)]).toEqual([value, true, true])
    for (const value of refused) expect([value, isPlainHttpUrl(value, z.regexes.domain)]).toEqual([value, false])
  })

  it('agrees with zod on random URL-like strings', () => {
    const rng = createRng(sfc32(hashSeed('plain urls')))
    const labels = ['example', 'a', 'EX-ample', 'xn--bcher-kva', '1', '0x1', '-x', 'x-', 'a'.repeat(63), 'a'.repeat(64), 'bücher', 'ex ample', '', 'com', 'fr', 'c']
    const units = ['a', 'Z', '0', '.', '-', '_', '~', '/', '?', '#', '%', '%zz', ':', '@', '[', ']', '!', "'", ' ', '\t', '\n', '\\', '"', '<', 'é', '\u2028']
    let accepted = 0
    for (let n = 0; n < 100_000; n++) {
      let value = rng.pick(['https://', 'http://', 'https:/', 'HTTP://', 'ftp://', ' https://', ''])
      value += Array.from({ length: rng.between(1, 4) }, () => rng.pick(labels)).join('.')
      if (rng.chance(0.7)) value += rng.pick(['/', '?', '#', ':', ':80/', '@', '.', ''])
      for (let k = rng.between(0, 8); k > 0; k--) value += rng.pick(units)
      if (!isPlainHttpUrl(value, z.regexes.domain)) continue
      accepted++
      expect([value, zodKeeps(value)]).toEqual([value, true])
    }
    expect(accepted).toBeGreaterThan(200)
  })
})

/** One random change to a record's JSON text: valid or not, as a records file may hold. */
function mutate(json: string, rng: Rng): string {
  const record = JSON.parse(json) as Record<string, unknown>
  const keys = Object.keys(record)
  const key = rng.pick(keys)
  const odd = rng.pick<unknown>(['', ' ', '  x  ', '\u00a0x', 'x\ufeff', '\tx\n', 0, -1, 1.5, 2 ** 53, true, null, [], {}, ['x'], [' '], { a: 1 }])
  const urls = ['https://exa mple.com', 'https://example.com:99999/', 'https://xn--a.com/', ' https://example.com/ ', 'http://a.b.fr', 'https://ex\tample.com/', 'ftp://example.com/', 'https://EXAMPLE.com/']
  switch (rng.int(12)) {
    case 0: // a field removed
      delete record[key]
      break
    case 1: // a field of another type or value
      record[key] = odd
      break
    case 2: // an unknown field
      record[rng.pick(['extra', 'titel', 'constructor', 'toString'])] = odd
      break
    case 3: // the same fields in another order
      return JSON.stringify(Object.fromEntries(keys.sort(() => rng.next() - 0.5).map((k) => [k, record[k]])))
    case 4: // a string padded with what zod's trim removes
      for (const k of keys) if (typeof record[k] === 'string' && rng.chance(0.5)) record[k] = rng.pick([' ', '\n', '\u00a0', '\u2003']) + (record[k] as string) + rng.pick(['', ' ', '\t'])
      break
    case 5: // a URL of another shape
      record[rng.pick(['url', 'image'])] = rng.pick(urls)
      if (Array.isArray(record.sources) && record.sources.length > 0) (record.sources as Record<string, unknown>[])[0]!.url = rng.pick(urls)
      break
    case 6: // an open object with extra keys, or with a bad typed one
      record.organization_data = rng.pick<unknown>([{ legal_name: 'X', extra: [1, { b: 2 }], address: { street: 'rue' } }, { address: 3 }, { same_as: ['https://example.com/', 'nope'] }, { telephone: '01', z: null, a: 'first' }])
      record.offer_data = rng.pick<unknown>([{ price: 0, price_currency: 'EUR', other: true }, { price: -1 }, { price: '12 €', valid_from: '2026-02-30' }, { price_currency: 'eur' }])
      break
    case 7: // dates and date-times
      record[rng.pick(['verified_at', 'effective_from', 'modified_at'])] = rng.pick(['2024-02-29', '2023-02-29', '2026-13-01', '2026-11-26T10:00:00Z', '2026-11-26T10:00:00+01:00', '2026-11-26T10:00:00', '2026-11-26'])
      break
    case 8: // ids and kinds that disagree
      record.id = rng.pick(['fait-0123456789abcdef', 'page-0123456789ABCDEF', 'expertise-fait-0123456789abcdef', 'offer-0123', 'brand-0123456789abcdef'])
      break
    case 9: // the rule spanning fields
      record.verification_scope = rng.pick(['Relecture', 'x'.repeat(501)])
      if (rng.chance(0.5)) delete record.verified_at
      break
    case 10: // arrays: empty, or holding a bad element
      record[rng.pick(['regions', 'sources', 'bibliography', 'related'])] = rng.pick<unknown>([[], [''], ['France', 3], [{ url: 'https://example.com/', label: ' L ', type: 'official' }], [{ url: 'https://example.com/', label: 'L', type: 'other' }]])
      break
    default: // a nested object with an unknown key, or a chapter and video of odd shapes
      record[rng.pick(['chapter', 'video'])] = rng.pick<unknown>([{ number: 1, title: ' T ' }, { number: -1, title: 'T' }, { number: 1.5, title: 'T' }, { number: 1, title: 'T', x: 1 }, { duration_seconds: 3, chapters: [{ start_seconds: 0, title: 'a', url: 'https://example.com/' }] }])
  }
  return JSON.stringify(record)
}
