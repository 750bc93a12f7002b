/**
 * The read-ahead (text-index.ts, `readAhead`) reads what a search would read cold, a step a turn,
 * so that a query of common words not yet read does not hold the serving thread for all of them at
 * once (issue 43, item 3). What must hold: its steps read exactly what the search would (after
 * them, nothing is left to read, and the search finds nothing cold), an answer is the same with or
 * without them, and answerSearchInTurns gives the event loop a turn between steps.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { answerSearch, answerSearchInTurns } from '../api/search.js'
import type { Fact } from '../records/record.js'
import { RecordIndex, toIndexQuery, type IndexQuery } from './record-index.js'
import { WARM_UP_QUERIES } from './warm-up.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const fresh = () => RecordIndex.build({ records: sample })

/** The warm-up's queries (one per evaluator) and more: a typo, a phrase, an English question, a later page. */
type Query = Omit<IndexQuery, 'limit' | 'offset'> & Partial<Pick<IndexQuery, 'limit' | 'offset'>>
const QUERIES: Query[] = [
  ...WARM_UP_QUERIES,
  { q: 'stationement trotoir', match: 'best' },
  { q: '"priorité à droite" intersection' },
  { q: 'how many points does a new driver have', match: 'best' },
  { q: 'panneau rond bleu', match: 'best', offset: 5, limit: 3 },
]
const withPage = (query: Query) =>
  toIndexQuery({ ...query, limit: query.limit ?? 10, offset: query.offset ?? 0 })

describe('read-ahead', () => {
  it.each(QUERIES)('reads what the search would read, and nothing is left after it: %o', (query) => {
    const index = fresh()
    const steps = index.readAhead(withPage(query))
    for (const step of steps) step()
    expect(index.readAhead(withPage(query))).toEqual([])
    const decodedBefore = index.largestDenseDecode
    index.search(withPage(query))
    // The search built no word's bits itself: the steps had.
    expect(index.largestDenseDecode).toBe(decodedBefore)
    expect(index.readAhead(withPage(query))).toEqual([])
  })

  it('has steps on a fresh snapshot for a query of several common words', () => {
    const query = withPage({ q: 'vitesse conducteur route', match: 'best' })
    expect(fresh().readAhead(query).length).toBeGreaterThan(0)
  })

  it('has no step for a query without text', () => {
    expect(fresh().readAhead(withPage({ kind: 'lesson' }))).toEqual([])
    expect(fresh().readAhead(withPage({ q: '   ' }))).toEqual([])
  })

  it('gives the same answers with or without its steps', () => {
    const read = fresh()
    const unread = fresh()
    for (const query of QUERIES) {
      for (const step of read.readAhead(withPage(query))) step()
      const a = read.search(withPage(query))
      const b = unread.search(withPage(query))
      expect(a.total).toBe(b.total)
      expect(a.results.map((r) => r.record.id)).toEqual(b.results.map((r) => r.record.id))
      expect(a.interpretation).toEqual(b.interpretation)
    }
  })

  it('answerSearchInTurns gives the loop a turn between steps, and answers as answerSearch', async () => {
    const input = {
      q: 'vitesse limitation agglomeration jeune conducteur alcool nuit autoroute',
      match: 'best' as const,
      limit: 10,
      offset: 0,
    }
    const index = fresh()
    const steps = index.readAhead(toIndexQuery(input)).length
    expect(steps).toBeGreaterThan(1)
    let turns = 0
    const tick = () => {
      turns++
      if (!done) setImmediate(tick)
    }
    let done = false
    setImmediate(tick)
    const answer = await answerSearchInTurns(index, input)
    done = true
    expect(turns).toBeGreaterThanOrEqual(steps)
    const expected = answerSearch(fresh(), input)
    expect(answer.results.map((r) => r.record.id)).toEqual(expected.results.map((r) => r.record.id))
    expect(answer.etag).toBe(expected.etag)
    // Read now: the same search again has no step, and is answered in the turn it is asked.
    expect(index.readAhead(toIndexQuery(input))).toEqual([])
  })
})
