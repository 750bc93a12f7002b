/**
 * The compiled record check (fast-parse.ts) against zod: what it accepts, zod accepts, with the same
 * JSON. The random properties are shared by the unit tier (hundreds of records and mutations, a quick
 * check) and the scale tier (thousands, and 100 000 URL-like strings).
 */
import { expect } from 'vitest'
import { z } from 'zod'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { isPlainHttpUrl } from '../../../src/core/records/fast-parse.js'
import { FactSchema, type Fact } from '../../../src/core/records/record.js'
import { fastParseRecord } from '../../../src/core/records/validate.js'
import { mutate } from './record-mutations.js'

/**
 * The one promise of the compiled check: what it accepts, FactSchema accepts, with the same JSON
 * (keys, their order, trims). Returns whether the compiled check accepted.
 */
function agreesWithZod(value: unknown): boolean {
  const fast = fastParseRecord(value)
  if (fast === undefined) return false
  const zod = FactSchema.safeParse(value)
  expect(
    zod.success,
    `zod refuses what the compiled check accepted: ${JSON.stringify(value)?.slice(0, 300)}`,
  ).toBe(true)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data))
  return true
}

/** Every record is accepted, as zod gives it. */
export function expectAcceptsEvery(records: Fact[]): void {
  for (const record of records) expect(agreesWithZod(structuredClone(record))).toBe(true)
}

/** `mutations` records of `sample` and `generated`, each changed once at random: the check agrees with zod. */
export function expectMutationsAgree(sample: Fact[], generated: Fact[], mutations: number): void {
  const rng = createRng(sfc32(hashSeed('fast-parse mutations')))
  let accepted = 0
  let valid = 0
  for (let n = 0; n < mutations; n++) {
    const base = rng.pick(n % 3 === 0 ? sample : generated)
    // Through JSON text, as a source gives them: a `__proto__` key is then an own key.
    const value: unknown = JSON.parse(mutate(JSON.stringify(base), rng))
    if (agreesWithZod(value)) accepted++
    if (FactSchema.safeParse(value).success) valid++
  }
  // Not a check that passes by refusing everything: valid mutations (reordered keys, extra keys in
  // open objects, padded strings zod trims…) mostly take the fast path.
  expect(valid).toBeGreaterThan(mutations / 6)
  expect(accepted / valid).toBeGreaterThan(0.5)
}

const url = z.url({ protocol: /^https?$/, hostname: z.regexes.domain })
/** What zod gives for `value`, when it accepts it unchanged. */
export const zodKeeps = (value: string) => {
  const result = url.safeParse(value)
  return result.success && result.data === value
}

/** `strings` random URL-like strings: every one isPlainHttpUrl accepts, zod accepts unchanged. */
export function expectRandomUrlsAgree(strings: number): void {
  const rng = createRng(sfc32(hashSeed('plain urls')))
  const labels = [
    'example',
    'a',
    'EX-ample',
    'xn--bcher-kva',
    '1',
    '0x1',
    '-x',
    'x-',
    'a'.repeat(63),
    'a'.repeat(64),
    'bücher',
    'ex ample',
    '',
    'com',
    'fr',
    'c',
  ]
  const units = [
    'a',
    'Z',
    '0',
    '.',
    '-',
    '_',
    '~',
    '/',
    '?',
    '#',
    '%',
    '%zz',
    ':',
    '@',
    '[',
    ']',
    '!',
    "'",
    ' ',
    '\t',
    '\n',
    '\\',
    '"',
    '<',
    'é',
    '\u2028',
  ]
  let accepted = 0
  for (let n = 0; n < strings; n++) {
    let value = rng.pick(['https://', 'http://', 'https:/', 'HTTP://', 'ftp://', ' https://', ''])
    value += Array.from({ length: rng.between(1, 4) }, () => rng.pick(labels)).join('.')
    if (rng.chance(0.7)) value += rng.pick(['/', '?', '#', ':', ':80/', '@', '.', ''])
    for (let k = rng.between(0, 8); k > 0; k--) value += rng.pick(units)
    if (!isPlainHttpUrl(value, z.regexes.domain)) continue
    accepted++
    expect([value, zodKeeps(value)]).toEqual([value, true])
  }
  expect(accepted).toBeGreaterThan(strings / 500)
}
