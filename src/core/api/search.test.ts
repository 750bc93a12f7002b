import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { RecordIndex } from '../search/record-index.js'
import { SearchEnvelopeSchema } from './schemas.js'
import { answerSearch, searchEnvelope, searchEnvelopeBytes } from './search.js'

const records = JSON.parse(readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8')) as Fact[]
const index = RecordIndex.build({ records })
const answer = (q?: string, offset = 0) => answerSearch(index, { q, limit: 10, offset })

describe('the search answer', () => {
  it.each([undefined, 'priorité', 'est-ce que la priorité à droite', 'prioriter', 'zzzz priorité', ''])('is the same envelope as JSON and as an object, valid against the schema (q=%s)', (q) => {
    const a = answer(q)
    const json = searchEnvelopeBytes(a).toString()
    expect(JSON.parse(json)).toEqual(searchEnvelope(a))
    expect(SearchEnvelopeSchema.safeParse(JSON.parse(json)).success).toBe(true)
  })
  it('carries the interpretation whenever q is given, and only then', () => {
    expect('interpretation' in searchEnvelope(answer(undefined))).toBe(false)
    expect(searchEnvelope(answer('')).interpretation).toEqual({ words: [], ignored: [], corrected: [], expanded: [], relaxed: [] })
    expect(searchEnvelope(answer('la priorité')).interpretation).toMatchObject({ words: ['priorité'], ignored: ['la'] })
  })
  it('has an ETag per snapshot and query as given: two spellings are two answers', () => {
    expect(answer('priorité').etag).toBe(answer('priorité').etag)
    expect(answer('Priorité').etag).not.toBe(answer('priorité').etag)
    expect(answer('priorité', 1).etag).not.toBe(answer('priorité').etag)
    expect(answer(undefined).etag).not.toBe(answer('').etag)
  })
})
