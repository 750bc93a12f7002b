import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { digested } from '../../../test/support/digested.js'
import type { Fact } from '../records/record.js'
import { decodePostings } from './postings-codec.js'
import { searchedText } from './snapshot-builder.js'
import { TextIndexBuilder, mergeTextParts, type TextIndexPart } from './text-index-builder.js'
import { tokenize } from './tokenize.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const texts = sample.map(searchedText)

function build(records: typeof texts, options?: { chunkPostings?: number }): TextIndexPart {
  const builder = new TextIndexBuilder(options)
  for (const { title, body } of records) builder.add(title, body)
  return builder.part()
}

/** Each term's postings as (document, title count, body count), by the term itself. */
function postingsByTerm(part: TextIndexPart): Map<string, number[][]> {
  return new Map(
    part.terms.map((term, t) => {
      const p = decodePostings(part.postings, part.termStart[t]!, part.frequency[t]!)
      return [term, Array.from(p.docs, (doc, i) => [doc, p.titleTf[i]!, p.bodyTf[i]!])]
    }),
  )
}

it('indexes every word of every record with its counts per field', () => {
  const byTerm = postingsByTerm(build(texts))
  const counted = (words: string[]) =>
    words.reduce((counts, word) => counts.set(word, (counts.get(word) ?? 0) + 1), new Map<string, number>())
  const wrong: unknown[] = []
  texts.forEach(({ title, body }, doc) => {
    const [inTitle, inBody] = [counted(tokenize(title)), counted(tokenize(body))]
    for (const word of new Set([...inTitle.keys(), ...inBody.keys()])) {
      const expected = [doc, Math.min(255, inTitle.get(word) ?? 0), Math.min(255, inBody.get(word) ?? 0)]
      const found = byTerm.get(word)?.find(([d]) => d === doc)
      if (found?.join() !== expected.join()) wrong.push({ word, expected, found })
    }
  })
  expect(wrong).toEqual([])
})

it.each([1, 97, 5_000])('builds the same index when its log is cut every %i postings', (chunkPostings) => {
  expect(digested(build(texts, { chunkPostings }))).toEqual(digested(build(texts)))
})

it('merges parts into the index of the whole, whatever words each part met first', () => {
  const whole = build(texts)
  const merged = mergeTextParts([
    build(texts.slice(0, 100), { chunkPostings: 300 }),
    build(texts.slice(100, 101)),
    build(texts.slice(101)),
  ])
  expect(postingsByTerm(merged)).toEqual(postingsByTerm(whole))
  expect({ ...merged, terms: [], frequency: [], termStart: [], postings: [], lastDoc: [] }).toEqual({
    ...whole,
    terms: [],
    frequency: [],
    termStart: [],
    postings: [],
    lastDoc: [],
  })
})
