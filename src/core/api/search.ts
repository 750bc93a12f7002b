/**
 * A search answer, assembled once for every transport: the HTTP route sends its JSON, the MCP tools
 * (through LocalRecordReader) its object. Both carry the same envelope — results, total, limit,
 * offset and, whenever q is given, the interpretation — so they cannot tell different stories.
 */
import { setImmediate } from 'node:timers/promises'
import { strongEtag } from '../etag.js'
import { searchKey, toIndexQuery, type IndexedRecord, type RecordIndex } from '../search/record-index.js'
import type { SearchObserver } from '../snapshots/live-records.js'
import type { SearchEnvelope, SearchInterpretation, SearchParams } from './schemas.js'

/** Search parameters after validation, `po_live` aside (it is an HTTP matter); `match` defaults to `all`. */
export type SearchInput = Omit<SearchParams, 'po_live' | 'match'> & Partial<Pick<SearchParams, 'match'>>

export type SearchAnswer = {
  results: readonly IndexedRecord[]
  total: number
  limit: number
  offset: number
  interpretation?: SearchInterpretation
  /** Strong ETag of the answer: a function of the snapshot and the query as given. */
  etag: string
}

/** Searches `index`; a search with q is reported to `observe` (its mode, duration and total). */
export function answerSearch(index: RecordIndex, input: SearchInput, observe?: SearchObserver): SearchAnswer {
  const query = toIndexQuery(input)
  const timed = observe !== undefined && input.q !== undefined && input.q !== ''
  const startedAt = timed ? performance.now() : 0
  const page = index.search(query)
  if (timed) observe(input.match ?? 'all', (performance.now() - startedAt) / 1000, page.total)
  return {
    results: page.results,
    total: page.total,
    limit: query.limit,
    offset: query.offset,
    interpretation: page.interpretation,
    etag: strongEtag(`${index.version}|${searchKey(query)}`),
  }
}

/**
 * `answerSearch`, with the words the search would read cold read first, a step a turn
 * (RecordIndex#readAhead): at 1 000 000 records a query of eight common words read cold held the
 * serving thread 60–90 ms at once, every other request waiting (issue 43, item 3). A search of kept
 * words has no step and is answered in the same turn.
 */
export async function answerSearchInTurns(
  index: RecordIndex,
  input: SearchInput,
  observe?: SearchObserver,
): Promise<SearchAnswer> {
  // Reading the query is a turn of its own, each step another, and the search the last.
  const steps = index.readAhead(toIndexQuery(input))
  for (const step of steps) {
    await setImmediate()
    step()
  }
  if (steps.length > 0) await setImmediate()
  return answerSearch(index, input, observe)
}

/** The envelope as an object (for MCP structured content and in-process readers). */
export function searchEnvelope(answer: SearchAnswer): SearchEnvelope {
  const { results, total, limit, offset, interpretation } = answer
  const envelope: SearchEnvelope = { results: results.map((e) => e.record), total, limit, offset }
  if (interpretation !== undefined) envelope.interpretation = interpretation
  return envelope
}

const RESULTS_OPEN = Buffer.from('{"results":[')
const COMMA = Buffer.from(',')

/** The envelope as JSON bytes, assembled from each record's bytes encoded at load: no JSON.stringify of records per request. */
export function searchEnvelopeBytes(answer: SearchAnswer): Buffer {
  const parts: Buffer[] = [RESULTS_OPEN]
  for (let i = 0; i < answer.results.length; i++) {
    if (i > 0) parts.push(COMMA)
    parts.push(answer.results[i]!.bytes)
  }
  let tail = `],"total":${answer.total},"limit":${answer.limit},"offset":${answer.offset}`
  if (answer.interpretation !== undefined)
    tail += `,"interpretation":${JSON.stringify(answer.interpretation)}`
  parts.push(Buffer.from(`${tail}}`))
  return Buffer.concat(parts)
}
