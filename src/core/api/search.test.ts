import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { RecordIndex } from '../search/record-index.js'
import { SearchEnvelopeSchema } from './schemas.js'
import { answerSearch, searchEnvelope, searchEnvelopeBytes } from './search.js'

const records = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const index = RecordIndex.build({ records })
const answer = (q?: string, offset = 0) => answerSearch(index, { q, limit: 10, offset })

describe('the search answer', () => {
  it.each([undefined, 'priorité', 'est-ce que la priorité à droite', 'prioriter', 'zzzz priorité', ''])(
    'is the same envelope as JSON and as an object, valid against the schema (q=%s)',
    (q) => {
      const a = answer(q)
      const json = searchEnvelopeBytes(a).toString()
      expect(JSON.parse(json)).toEqual(searchEnvelope(a))
      expect(SearchEnvelopeSchema.safeParse(JSON.parse(json)).success).toBe(true)
    },
  )
  it('carries the interpretation whenever q is given, and only then', () => {
    expect('interpretation' in searchEnvelope(answer(undefined))).toBe(false)
    expect(searchEnvelope(answer('')).interpretation).toEqual({
      words: [],
      ignored: [],
      corrected: [],
      expanded: [],
      relaxed: [],
    })
    expect(searchEnvelope(answer('la priorité')).interpretation).toMatchObject({
      words: ['priorité'],
      ignored: ['la'],
    })
  })
  it('has an ETag per snapshot and query as given: two spellings are two answers', () => {
    expect(answer('priorité').etag).toBe(answer('priorité').etag)
    expect(answer('Priorité').etag).not.toBe(answer('priorité').etag)
    expect(answer('priorité', 1).etag).not.toBe(answer('priorité').etag)
    expect(answer(undefined).etag).not.toBe(answer('').etag)
  })
})

describe('match=best', () => {
  const best = (q: string, offset = 0, limit = 10) =>
    searchEnvelope(answerSearch(index, { q, limit, offset, match: 'best' }))
  const all = (q: string) => searchEnvelope(answerSearch(index, { q, limit: 10, offset: 0 }))

  it('answers like match=all when some record holds every word, naming no word left out', () => {
    const a = all('priorité droite')
    const b = best('priorité droite')
    expect(a.total).toBeGreaterThan(0)
    expect(b.total).toBe(a.total)
    expect(b.results.slice(0, a.results.length).map((r) => r.id)).toEqual(a.results.map((r) => r.id))
    expect(b.interpretation).toMatchObject({ matched: ['priorité', 'droite'], left_out: [] })
  })

  it('leaves out a word no record holds, and total counts the records holding the rest, as match=all would', () => {
    expect(all('priorité droite zzzqqq').total).toBe(0)
    const b = best('priorité droite zzzqqq')
    expect(b.total).toBe(all('priorité droite').total)
    // …in the order match=all gives them, as if the word had not been typed.
    expect(b.results.slice(0, b.total).map((r) => r.id)).toEqual(
      all('priorité droite')
        .results.map((r) => r.id)
        .slice(0, b.total),
    )
    expect(b.interpretation).toMatchObject({ matched: ['priorité', 'droite'], left_out: ['zzzqqq'] })
    // Each result of the page that lacks a word says which.
    for (const r of b.results.slice(0, b.total))
      expect(b.interpretation!.missing).toContainEqual({ id: r.id, words: ['zzzqqq'] })
    expect(
      SearchEnvelopeSchema.safeParse(
        JSON.parse(
          searchEnvelopeBytes(
            answerSearch(index, { q: 'priorité droite zzzqqq', limit: 10, offset: 0, match: 'best' }),
          ).toString(),
        ),
      ).success,
    ).toBe(true)
  })

  it('gives a clear zero when no record holds any word', () => {
    const b = best('zzzqqq wwwkkk')
    expect(b.total).toBe(0)
    expect(b.results).toEqual([])
    expect(b.interpretation).toMatchObject({ matched: [], left_out: ['zzzqqq', 'wwwkkk'] })
  })

  it('pages one ranking: offset continues where the previous page stopped, without repeats', () => {
    const whole = best('priorité droite véhicule piéton', 0, 30).results.map((r) => r.id)
    const pages = [0, 5, 10].flatMap((offset) =>
      best('priorité droite véhicule piéton', offset, 5).results.map((r) => r.id),
    )
    expect(pages).toEqual(whole.slice(0, pages.length))
    expect(new Set(whole).size).toBe(whole.length)
  })

  it('is its own answer: another ETag than match=all', () => {
    expect(answerSearch(index, { q: 'priorité', limit: 10, offset: 0, match: 'best' }).etag).not.toBe(
      answer('priorité').etag,
    )
  })
})
