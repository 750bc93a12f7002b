/**
 * A hand-written case of best match's pruning (best-match.ts): a record holding every word of the
 * query ranks before records holding all but one, however many of their words those records'
 * titles hold. Counting on bits once pruned it, below a page floor set by such titled records — a
 * defect that reading the organization's fields into the searched text exposed on the generated
 * corpus (issue 46).
 */
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { RecordIndex, toIndexQuery } from './record-index.js'

const record = (n: number, title: string, text: string): Fact => ({
  id: `fait-${n.toString(16).padStart(16, '0')}`,
  kind: 'fact',
  url: `https://code-et-conduite.example/essai-${n}`,
  regions: ['France'],
  sources: [],
  title,
  text,
})

// Twelve records titled with four of the query's five words (each weighs half more in a title), one
// record holding all five in its text only, and records holding none, so that the words are common
// enough to be counted on bits.
const titled = Array.from({ length: 12 }, (_, i) =>
  record(i, `Grêle brouillard verglas neige n° ${i}`, 'Conduire prudemment quand le temps change.'),
)
const holdingEvery = record(100, 'Un hiver sur la route', 'Grêle, brouillard, verglas, neige et congères.')
const others = Array.from({ length: 20 }, (_, i) => record(200 + i, `Autre fiche ${i}`, 'Sans rapport.'))
const index = RecordIndex.build({ records: [...titled, holdingEvery, ...others] })

describe('best match', () => {
  it('keeps a record holding every word before titled records lacking one', () => {
    const answer = index.search(
      toIndexQuery({ q: 'grêle brouillard verglas neige congères', match: 'best', limit: 10, offset: 0 }),
    )
    expect(answer.results[0]?.record.id).toBe(holdingEvery.id)
    expect(answer.total).toBe(1)
  })
})
