import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { searchedText } from './snapshot-builder.js'
import { TermReader } from './term-reader.js'
import { tokenize } from './tokenize.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records

function wordsRead(reader: TermReader, text: string): string[] {
  const count = reader.read(text)
  return Array.from(reader.ids.subarray(0, count), (id) => reader.terms[id]!)
}

it('reads every text of the sample word for word as tokenize does', () => {
  const reader = new TermReader()
  for (const record of sample) {
    const { title, body } = searchedText(record)
    for (const text of [title, body, JSON.stringify(record)])
      expect(wordsRead(reader, text)).toEqual(tokenize(text))
  }
})

it.each([
  "l'autoroute d’alcoolémie qu'il n'est s'arrêter j'ai c'est m'a t'es",
  'permis C et permis D, l et qu sans apostrophe; l’ puis l',
  "qu'qu' l'l'l d'",
  'R412-6-1 : aujourd’hui, porte-à-faux! panneaux PANNEAUX Panneaux',
  'émoji 🚗 𝐀𝐁 Ⅻ ǅ ﬁn Œuvre ÆTHER x\u0308\u0323 ק ж Ω \ud800 seul \udc00',
  'peux peu sommes somme deux ceux',
  '',
  '   ',
])('reads %j as tokenize does, whatever it read before', (text) => {
  const fresh = new TermReader()
  expect(wordsRead(fresh, text)).toEqual(tokenize(text))
  const used = new TermReader()
  for (const record of sample.slice(0, 20)) used.read(record.text)
  expect(wordsRead(used, text)).toEqual(tokenize(text))
})

it('makes no term of an elision only ever read before an apostrophe', () => {
  const reader = new TermReader()
  reader.read("l'autoroute qu'il")
  expect(reader.terms).toEqual(['autoroute', 'il'])
  reader.read('la lettre l')
  expect(reader.terms).toEqual(['autoroute', 'il', 'la', 'lettre', 'l'])
})

it('numbers each term once, in the order first read', () => {
  const reader = new TermReader()
  expect(Array.from(reader.ids.subarray(0, reader.read('feux feu Feu')))).toEqual([0, 0, 0])
  expect(reader.terms).toEqual(['feu'])
  expect(reader.intern('feu')).toBe(0)
  expect(reader.intern('nouveau')).toBe(1)
})

it('reads words of any length and any number of distinct words as tokenize does', () => {
  const reader = new TermReader()
  const many = Array.from({ length: 30_000 }, (_, n) => `mot${n.toString(36)}é`).join(' ')
  const long = `${'a'.repeat(10_000)}É${'b'.repeat(5_000)} court`
  for (const text of [many, long, many, long]) expect(wordsRead(reader, text)).toEqual(tokenize(text))
  expect(reader.terms.length).toBe(30_000 + 2)
})
