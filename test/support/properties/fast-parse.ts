/**
 * The compiled record check (fast-parse.ts) against zod: what it accepts, zod accepts, with the same
 * JSON. The random properties are shared by the unit tier (hundreds of records and mutations, a quick
 * check) and the scale tier (thousands).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
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
