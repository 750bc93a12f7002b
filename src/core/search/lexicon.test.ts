import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { loadWordForms, type WordForms } from './forms.js'
import { Lexicon, lexiconData } from './lexicon.js'
import { RecordIndex, toIndexQuery, withPreparedAnswers } from './record-index.js'
import { SnapshotBuilder } from './snapshot-builder.js'
import { TextIndex } from './text-index.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const builder = new SnapshotBuilder('records')
sample.forEach((r, i) => builder.add(r, `record ${i}`))
const data = builder.finish()
const text = new TextIndex(data.text)
const forms = loadWordForms()

/** `forms`, counting the form keys it is asked for. */
function counting(forms: WordForms): { forms: WordForms; keys: () => number } {
  let keys = 0
  const counted = Object.create(forms) as WordForms
  counted.key = (word: string) => {
    keys++
    return forms.key(word)
  }
  return { forms: counted, keys: () => keys }
}

describe('the lexicon', () => {
  it('given the tables made with the snapshot, reads no word of the dictionary to answer a query', () => {
    const tables = lexiconData(text, forms)
    const { forms: counted, keys } = counting(forms)
    const lexicon = new Lexicon(text, counted, tables)
    expect(keys()).toBe(0)
    expect(lexicon.formsOf('vitesse').length).toBeGreaterThan(0)
    lexicon.wordsOfLength(7)
    // The word asked, and the forms it found when the word itself is not indexed: never the dictionary.
    expect(keys()).toBeLessThan(5)
    expect(text.terms).toBeGreaterThan(1_000)
  })

  it('answers as one made on the spot: every form of every indexed word, every candidate by length', () => {
    const handed = new Lexicon(text, forms, lexiconData(text, forms))
    const counted = counting(forms)
    const made = new Lexicon(text, counted.forms)
    expect(counted.keys()).toBe(text.terms)
    const words = ['vitesse', 'vitesses', 'stationement', 'conductrice', 'permis', 'zzz', '']
    for (let id = 0; id < text.terms; id += 7) words.push(text.term(id))
    for (const word of words) expect(handed.formsOf(word), word).toEqual(made.formsOf(word))
    for (let n = 0; n < 30; n++) expect(handed.wordsOfLength(n), `length ${n}`).toEqual(made.wordsOfLength(n))
    expect(handed.wordsOfLength(-1)).toEqual([])
  })

  it('is made with the snapshot by withPreparedAnswers, and a search then gives the same answer', () => {
    const prepared = withPreparedAnswers(data)
    expect(prepared.lexicon?.keys.length).toBeGreaterThan(0)
    const query = toIndexQuery({ q: 'vitese limite en ville', limit: 10, offset: 0, match: 'best' })
    const ids = (index: RecordIndex) => index.search(query).results.map((r) => r.record.id)
    expect(ids(new RecordIndex(prepared))).toEqual(ids(new RecordIndex(data)))
  })
})
