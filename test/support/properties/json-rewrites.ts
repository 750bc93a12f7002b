/**
 * What the build decides a record's JSON text is (json-text.ts): its canonical JSON, or not. The
 * property that it never calls a text canonical that is not, over texts rewritten at random, is shared
 * by the unit tier (hundreds of rewrites, a quick check) and the scale tier (thousands).
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32, type Rng } from '../../../scripts/corpus/prng.js'
import { isCanonicalJson } from '../../../src/core/records/json-text.js'
import { FactSchema, type Fact } from '../../../src/core/records/record.js'
import { RecordValidator } from '../../../src/core/records/validate.js'

/** What the build would decide for `json`: is it the canonical JSON of the record it holds? */
export function judged(json: string): boolean {
  const checked = new RecordValidator('test').check(JSON.parse(json), 'line 1')
  return checked !== undefined && isCanonicalJson(json, checked.measure)
}

/** The record's canonical JSON, as the build serialises it. */
export const canonical = (json: string) => JSON.stringify(FactSchema.parse(JSON.parse(json)))

/** `rewrites` texts of `sample` and `generated` records, rewritten at random: none judged canonical wrongly. */
export function expectRewritesJudgedRightly(sample: Fact[], generated: Fact[], rewrites: number): void {
  const rng = createRng(sfc32(hashSeed('json-text rewrites')))
  let kept = 0
  for (let n = 0; n < rewrites; n++) {
    const json = rewrite(JSON.stringify(rng.pick(n % 4 === 0 ? sample : generated)), rng)
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch {
      continue
    }
    if (!FactSchema.safeParse(parsed).success) continue
    if (judged(json)) {
      kept++
      expect(json).toBe(canonical(json))
    }
  }
  // Not a test that passes by refusing everything: unchanged rewrites are recognised.
  expect(kept).toBeGreaterThan(rewrites / 8)
}

/** One random rewrite of a record's JSON text: mostly none, else a change of spelling or of content. */
function rewrite(json: string, rng: Rng): string {
  switch (rng.int(12)) {
    case 0: {
      // white space somewhere between tokens
      const at = json.indexOf(rng.pick(['":', ',"', '[', '}']))
      return at < 0 ? json : `${json.slice(0, at + 1)}${rng.pick([' ', '\n', '\t'])}${json.slice(at + 1)}`
    }
    case 1: // a letter as a \u escape
      return json.replace(/[a-zé]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    case 2: // an escape JSON.stringify writes, in a string
      return json.replace(
        '"text":"',
        `"text":"${rng.pick(['\\n', '\\"', '\\\\', '\\t', '\\b', '\\f', '\\r'])}`,
      )
    case 3: // a duplicate member
      return json.replace('{', `{${rng.pick(['"title":"Avant",', '"text":"x\\ny",', '"regions":[],'])}`)
    case 4: {
      // the keys in another order
      const record = JSON.parse(json) as Record<string, unknown>
      return JSON.stringify(Object.fromEntries(Object.entries(record).sort(() => rng.next() - 0.5)))
    }
    case 5: // a string with what zod trims
      return json.replace('"title":"', `"title":"${rng.pick([' ', '\\n', '\\t'])}`)
    case 6: // a number spelled another way, perhaps with white space making up its length
      return json
        .replace(
          /":(\d+)([,}])/,
          (_, digits: string, end: string) =>
            `":${rng.pick([`${digits}.0`, `${digits}e0`, `${Number(digits) / 10}e1`, `0${digits}`])}${end}`,
        )
        .replace(rng.chance(0.5) ? '","' : '\0', '", "')
    case 7: {
      // open objects with members of their own: numbers, a key holding the name of another, decoys
      const record = JSON.parse(json) as Record<string, unknown>
      record.offer_data = {
        ...(record.offer_data as object),
        price: rng.pick([0, 12.5, 1000, '30 €']),
        [rng.pick(['sessions', 'x"price', 'price_'])]: rng.pick<unknown>([
          3,
          1e21,
          0.1,
          'a"b',
          null,
          true,
          false,
          [1],
          { a: 1 },
        ]),
      }
      record.organization_data = {
        legal_name: 'X',
        address: rng.pick<unknown>(['1 rue', { street: 'rue', number: 10, 'x"number': 10 }, {}]),
        [rng.pick(['founded', 'price'])]: rng.pick<unknown>([1990, '1990', null]),
      }
      // In the schema's order (the open objects were added last), so that unchanged it is canonical.
      const text = JSON.stringify(FactSchema.safeParse(record).data ?? record)
      return rng.pick([
        text,
        text.replace(/"price":(\d+)/, '"price":$1.0'),
        text.replace(/"price":1000/, '"price":1e3').replace('":"', '": "'),
        text.replace('"legal_name":"X"', '"legal_name":"X","founded":1990'),
        text.replace(/"number":10/, '"number":1e1'),
      ])
    }
    default:
      return json
  }
}
