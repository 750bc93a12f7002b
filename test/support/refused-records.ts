/**
 * Records a load and a publication must refuse rather than change (issue 32), each as the NDJSON
 * line that holds it, built from a valid record's JSON, and the reason the refusal must give.
 */
import { RECORD_BOUNDS } from '../../src/core/records/record-bounds.js'

/** `{"id":…,…}` with `member` (JSON text) added as its last member. */
const withMember = (record: string, member: string) => `${record.slice(0, -1)},${member}}`

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

export type RefusedCase = { name: string; line: (record: string) => string; reason: RegExp }

export const REFUSED_RECORDS: RefusedCase[] = [
  {
    name: 'a NUL character',
    line: (r) => r.replace('"title":"', '"title":"\\u0000'),
    reason: /field "title": holds a NUL character/,
  },
  {
    name: 'a lone surrogate',
    line: (r) => r.replace('"title":"', '"title":"\\ud800'),
    reason: /field "title": holds a lone surrogate/,
  },
  {
    name: 'a number JSON cannot hold',
    line: (r) => withMember(r, '"offer_data":{"price":1e400}'),
    reason: /field "offer_data.price": a number larger than a JSON number can hold/,
  },
  {
    name: 'a __proto__ key in an open field',
    line: (r) => withMember(r, '"offer_data":{"__proto__":{"price":1}}'),
    reason: /field "offer_data.__proto__": the key "__proto__" is refused/,
  },
  {
    name: 'a constructor key',
    line: (r) => withMember(r, '"organization_data":{"address":{"constructor":"x"}}'),
    reason: /field "organization_data.address.constructor": the key "constructor" is refused/,
  },
  {
    name: 'a prototype key',
    line: (r) => withMember(r, '"person_data":{"prototype":1}'),
    reason: /field "person_data.prototype": the key "prototype" is refused/,
  },
  {
    name: 'nesting past the bound',
    line: (r) => withMember(r, `"offer_data":${nested(RECORD_BOUNDS.depth)}`),
    reason: new RegExp(`field "offer_data(\\.a)+": nested more than ${RECORD_BOUNDS.depth} levels deep`),
  },
  {
    name: 'nesting 4 400 levels deep',
    line: (r) => withMember(r, `"offer_data":${nested(4_400)}`),
    reason: new RegExp(`field "offer_data(\\.a)+": nested more than ${RECORD_BOUNDS.depth} levels deep`),
  },
  {
    name: 'a text over its bound',
    line: (r) => r.replace(/"text":"[^"]*"/, `"text":"${'a'.repeat(RECORD_BOUNDS.text + 1)}"`),
    reason: new RegExp(`field "text": Too big: expected string to have <=${RECORD_BOUNDS.text} characters`),
  },
  {
    name: 'an array over its bound',
    line: (r) =>
      r.replace(/"regions":\[[^\]]*\]/, `"regions":[${'"France",'.repeat(RECORD_BOUNDS.items)}"France"]`),
    reason: new RegExp(`field "regions": Too big: expected array to have <=${RECORD_BOUNDS.items} items`),
  },
  {
    name: 'an open object with too many members',
    line: (r) =>
      withMember(
        r,
        `"offer_data":{${Array.from({ length: RECORD_BOUNDS.objectMembers + 1 }, (_, i) => `"k${i}":1`).join(',')}}`,
      ),
    reason: new RegExp(`field "offer_data": more than ${RECORD_BOUNDS.objectMembers} members`),
  },
]
