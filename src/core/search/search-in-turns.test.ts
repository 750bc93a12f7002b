/**
 * A search in turns (RecordIndex#searchInTurns) evaluates a query of many common words a slice a
 * turn of the event loop (steps.ts, STEP_CHECKS), so that it never holds the serving thread for
 * all of it (issue 43, item 3). What must hold: the answer is the one `search` gives, under every
 * mode, filter and page; a search run while another is suspended between its slices answers right
 * (the work spaces are leased, text-index.ts); searches in turns run one at a time, in the order
 * asked; and a search with little to evaluate is answered in the turn it is asked.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { STEP_CHECKS } from './match.js'
import { RecordIndex, toIndexQuery, type IndexQuery, type SearchPage } from './record-index.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records

/** Words every generated record holds, and one that one in ten lacks. */
const COMMON = [
  'vitesse',
  'conducteur',
  'route',
  'vehicule',
  'conduite',
  'trajet',
  'voie',
  'permis',
  'panneau',
  'carrefour',
  'moteur',
]
const RARE = 'freinage'
const GENERATED = 16_000

/**
 * The sample and GENERATED records sharing the common words, in varying counts (so that scores
 * differ), as lessons and articles: a query of all the words then checks about GENERATED
 * candidates against 12 groups, about three times STEP_CHECKS.
 */
function corpus(): Fact[] {
  const lesson = sample.find((r) => r.kind === 'lesson')!
  const article = sample.find((r) => r.kind === 'article')!
  const generated = Array.from({ length: GENERATED }, (_, i): Fact => {
    const template = i % 2 === 0 ? lesson : article
    const words = COMMON.map((w, k) => Array.from({ length: 1 + ((i + k) % 3) }, () => w).join(' '))
    if (i % 10 !== 0) words.push(RARE)
    return {
      ...template,
      id: `page-${(0x1000_0000_0000 + i).toString(16).padStart(16, '0')}`,
      url: `${template.url}-${i}`,
      title: i % 5 === 0 ? `Fiche ${i} : vitesse et route` : `Fiche ${i}`,
      text: `${words.join('. ')}.`,
    }
  })
  return [...sample, ...generated]
}

const records = corpus()
const fresh = () => RecordIndex.build({ records })
const query = (q: string, more: Partial<IndexQuery> = {}) =>
  toIndexQuery({ q, limit: 10, offset: 0, ...more })
const ids = (page: SearchPage) => page.results.map((r) => r.record.id)

const BROAD = [...COMMON, RARE].join(' ')
const QUERIES: IndexQuery[] = [
  query(BROAD),
  query(BROAD, { match: 'best' }),
  query(BROAD, { kind: 'article' }),
  query(BROAD, { offset: 40, limit: 7 }),
  query(COMMON.join(' ')),
  // No record holds the last word: nothing matches, and each relaxed query (up to 8 words) is a
  // count of the rest.
  query(`${COMMON.slice(0, 7).join(' ')} zzzqqq`),
  query(`${BROAD} zzzqqq`, { match: 'best' }),
]

/** Runs `search` while counting the turns of the event loop that pass meanwhile. */
async function countingTurns<T>(search: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0
  let done = false
  const tick = () => {
    turns++
    if (!done) setImmediate(tick)
  }
  setImmediate(tick)
  const value = await search()
  done = true
  return { value, turns }
}

describe('a search in turns', () => {
  const expected = fresh()
  const index = fresh()
  // The read-ahead's turns are not those counted below: the words are read first.
  for (const q of QUERIES) for (const step of index.readAhead(q)) step()

  it.each(QUERIES)('answers as search, a slice a turn: %o', async (q) => {
    const want = expected.search(q)
    const { value, turns } = await countingTurns(() => index.searchInTurns(q))
    expect(value.page.total).toBe(want.total)
    expect(ids(value.page)).toEqual(ids(want))
    expect(value.page.interpretation).toEqual(want.interpretation)
    expect(value.seconds).toBeGreaterThan(0)
    // The generated records are checked against every group: slices, a turn between each.
    expect(turns).toBeGreaterThanOrEqual(1)
  })

  it('answers right when another search runs while it is suspended', async () => {
    const heavy = query(BROAD)
    const other = query(COMMON.slice(0, 4).join(' '), { match: 'best', kind: 'lesson' })
    const during: SearchPage[] = []
    let done = false
    const meddle = () => {
      during.push(index.search(other))
      if (!done) setImmediate(meddle)
    }
    setImmediate(meddle)
    const { page } = await index.searchInTurns(heavy)
    done = true
    // The words' checks came in about (GENERATED × 13) / STEP_CHECKS slices, another search between each.
    expect(during.length).toBeGreaterThanOrEqual(Math.floor((GENERATED * 0.9 * 13) / STEP_CHECKS) - 1)
    expect(during.length).toBeGreaterThanOrEqual(2)
    expect(ids(page)).toEqual(ids(expected.search(heavy)))
    for (const found of during) expect(ids(found)).toEqual(ids(expected.search(other)))
  })

  it('runs searches in turns one at a time, in the order asked', async () => {
    const order: string[] = []
    const asked = QUERIES.slice(0, 4).map((q, i) =>
      index.searchInTurns(q).then(({ page }) => (order.push(`${i}`), page)),
    )
    const pages = await Promise.all(asked)
    expect(order).toEqual(['0', '1', '2', '3'])
    pages.forEach((page, i) => expect(ids(page)).toEqual(ids(expected.search(QUERIES[i]!))))
  })

  it('answers a search with little to evaluate in the turn it is asked', async () => {
    const rare = query('panneaux formes couleurs')
    for (const step of index.readAhead(rare)) step()
    const { turns, value } = await countingTurns(() => index.searchInTurns(rare))
    expect(turns).toBe(0)
    expect(ids(value.page)).toEqual(ids(expected.search(rare)))
  })
})
