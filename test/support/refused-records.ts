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
    name: 'a vertical tab, as word processors export a line break',
    line: (r) => r.replace('"title":"', '"title":"Vitesse\\u000bmaximale'),
    reason: /field "title": holds a vertical tab \(U\+000B\) at character 8, which XML 1.0 forbids/,
  },
  {
    name: 'an escape character in a source label',
    line: (r) => r.replace('"label":"', '"label":"\\u001b[31m'),
    reason: /field "sources.0.label": holds an escape character \(U\+001B\) at character 1/,
  },
  {
    name: 'a control character in an open field, nested',
    line: (r) => withMember(r, '"offer_data":{"notes":[{"x":"a\\u0001"}]}'),
    reason: /field "offer_data.notes.0.x": holds a control character \(U\+0001\) at character 2/,
  },
  {
    name: 'a control character in a key of an open field',
    line: (r) => withMember(r, '"person_data":{"bad\\u0002key":1}'),
    reason: /field "person_data.bad\\u0002key": the key holds a control character \(U\+0002\) at character 4/,
  },
  {
    name: 'the noncharacter U+FFFF',
    line: (r) => r.replace('"text":"', '"text":"\\uffff'),
    reason: /field "text": holds a noncharacter \(U\+FFFF\) at character 1, which XML 1.0 forbids/,
  },
  {
    name: 'the noncharacter U+FFFE, raw in the text',
    line: (r) => r.replace('"description":"', '"description":"\ufffe'),
    reason: /field "description": holds a noncharacter \(U\+FFFE\)/,
  },
  {
    name: 'a URL that closes an HTML attribute',
    line: (r) => r.replace(/"url":"[^"]*"/, '"url":"https://example.com/\\"><script>alert(1)</script>"'),
    reason:
      /field "url": must be written as the WHATWG URL parser writes it: "https:\/\/example.com\/%22%3E%3Cscript%3Ealert\(1\)%3C\/script%3E"/,
  },
  {
    name: 'a source URL with a quote',
    line: (r) => r.replace(/("sources":\[\{"url":")[^"]*"/, `$1https://example.com/'onmouseover='x"`),
    reason: /field "sources.0.url": must not hold a quote \(write it %27\)/,
  },
  {
    name: 'a URL the parser would rewrite',
    line: (r) => r.replace(/"url":"[^"]*"/, '"url":"https://Example.com"'),
    reason: /field "url": must be written as the WHATWG URL parser writes it: "https:\/\/example.com\/"/,
  },
  {
    name: 'a URL padded with spaces',
    line: (r) => r.replace(/"url":"([^"]*)"/, '"url":" $1 "'),
    reason: /field "url": must be written as the WHATWG URL parser writes it/,
  },
  {
    name: 'a related URL with a space',
    line: (r) => withMember(r, '"related":[{"title":"Voir","url":"https://example.com/a b","text":""}]'),
    reason:
      /field "related.0.url": must be written as the WHATWG URL parser writes it: "https:\/\/example.com\/a%20b"/,
  },
  {
    name: 'a javascript: image',
    line: (r) => withMember(r, '"image":"javascript:alert(1)"'),
    reason: /field "image": must be an http or https URL, not "javascript"/,
  },
  {
    name: 'a video URL with an angle bracket',
    line: (r) => withMember(r, '"video":{"embed_url":"https://example.com/<x>"}'),
    reason: /field "video.embed_url": must be written as the WHATWG URL parser writes it/,
  },
  {
    name: 'an organisation same_as URL with a tab',
    line: (r) => withMember(r, '"organization_data":{"same_as":["https://exa\\tmple.com/"]}'),
    reason: /field "organization_data.same_as.0": must be written as the WHATWG URL parser writes it/,
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
