/**
 * The search's evaluators run once on a small index of the bundled sample records when the service
 * starts, before it listens: the first search of several words in a process otherwise compiled the
 * evaluators on the serving thread, and ran their loops over every document before V8 had
 * optimised them. At 1 000 000 records an 8-word `match=best` first in a process took 341 ms of
 * CPU where the same query, first on another snapshot of the same process, took 43 ms (issue 43,
 * item 3). Nothing of the served snapshot is read: its caches and answers stay as its first
 * requests make them.
 */
import { readFileSync } from 'node:fs'
import { setImmediate } from 'node:timers/promises'
import type { Fact } from '../records/record.js'
import { RecordIndex, toIndexQuery } from './record-index.js'

/** data/records.json, beside dist/ and src/ alike. */
const SAMPLE_FILE = new URL('../../../data/records.json', import.meta.url)

/**
 * One query per evaluator (docs/search-internals.md, section 3), of the sample's common words: a
 * listing, one word, several under `match=all` (with and without a filter), and best match counted
 * on bits and term at a time, with filters.
 */
export const WARM_UP_QUERIES: {
  q?: string
  match?: 'all' | 'best'
  kind?: 'lesson' | 'fact'
  region?: 'france'
}[] = [
  { kind: 'lesson' },
  { q: 'vitesse' },
  { q: 'vitesse', kind: 'fact' },
  { q: 'vitesse conducteur route' },
  { q: 'permis conduite vehicule', region: 'france' },
  { q: 'vitesse limitation agglomeration jeune conducteur alcool nuit autoroute', match: 'best' },
  { q: 'route conduite vehicule conducteur zorglub', match: 'best', kind: 'lesson' },
  { q: 'stationnement trottoir zorglub', match: 'best' },
]

/** The bundled sample records' snapshot, for warming up what reads a snapshot. */
export function sampleIndex(file: URL = SAMPLE_FILE): RecordIndex {
  const { records } = JSON.parse(readFileSync(file, 'utf8')) as { records: Fact[] }
  return RecordIndex.build({ records })
}

/** Searches the sample with each query, twice; gives each query's total. */
export function warmSearch(index: RecordIndex = sampleIndex()): number[] {
  let totals: number[] = []
  for (let round = 0; round < 2; round++)
    totals = WARM_UP_QUERIES.map(
      (query) => index.search(toIndexQuery({ ...query, limit: 10, offset: 0 })).total,
    )
  return totals
}

/**
 * Rounds of the warm-up's queries run after the first two, in the background: two rounds get the
 * evaluators compiled, but not yet optimised for the long loops of a large snapshot. Measured at
 * 1 000 000 records, the first search of a query with nothing left to read (its words and space
 * made) took 53 ms of CPU after two rounds and 25 ms after 80, against 13–16 ms again.
 */
const BACKGROUND_WARM_UP_ROUNDS = 80

/**
 * Searches the sample with each query for `rounds` rounds, one search a turn of the event loop
 * (each well under a millisecond on the sample), so that it never holds the thread; stops early
 * when `stopped` says so (the service closing). Resolves with the searches made.
 */
export async function warmSearchInTurns(
  index: RecordIndex,
  rounds = BACKGROUND_WARM_UP_ROUNDS,
  stopped: () => boolean = () => false,
): Promise<number> {
  let searches = 0
  for (let round = 0; round < rounds; round++)
    for (const query of WARM_UP_QUERIES) {
      await setImmediate()
      if (stopped()) return searches
      index.search(toIndexQuery({ ...query, limit: 10, offset: 0 }))
      searches++
    }
  return searches
}
