import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
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
  texts.forEach(({ title, body }, doc) => {
    const [titleWords, bodyWords] = [tokenize(title), tokenize(body)]
    for (const word of new Set([...titleWords, ...bodyWords])) {
      const count = (words: string[]) => Math.min(255, words.filter((w) => w === word).length)
      expect(byTerm.get(word)!.find(([d]) => d === doc)).toEqual([doc, count(titleWords), count(bodyWords)])
    }
  })
})

it.each([1, 97, 5_000])('builds the same index when its log is cut every %i postings', (chunkPostings) => {
  expect(build(texts, { chunkPostings })).toEqual(build(texts))
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
