/**
 * A search answer, assembled once for every transport: the HTTP route sends its JSON, the MCP tools
 * (through LocalRecordReader) its object. Both carry the same envelope — results, total, limit,
 * offset and, whenever q is given, the interpretation — so they cannot tell different stories.
 */
import { strongEtag } from '../etag.js'
import {
  searchKey,
  toIndexQuery,
  type IndexedRecord,
  type IndexQuery,
  type RecordIndex,
  type SearchPage,
} from '../search/record-index.js'
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
  const startedAt = performance.now()
  const page = index.search(query)
  return answerOf(index, input, query, page, (performance.now() - startedAt) / 1000, observe)
}

/**
 * `answerSearch`, a step a turn of the event loop (RecordIndex#searchInTurns): what the search
 * would read cold first, then its evaluation in slices. At 1 000 000 records a query of eight
 * common words read cold held the serving thread 60–90 ms at once, every other request waiting
 * (issue 43, item 3). A search of kept words with little to evaluate is answered in the same turn.
 */
export async function answerSearchInTurns(
  index: RecordIndex,
  input: SearchInput,
  observe?: SearchObserver,
): Promise<SearchAnswer> {
  const query = toIndexQuery(input)
  const { page, seconds } = await index.searchInTurns(query)
  return answerOf(index, input, query, page, seconds, observe)
}

function answerOf(
  index: RecordIndex,
  input: SearchInput,
  query: IndexQuery,
  page: SearchPage,
  seconds: number,
  observe: SearchObserver | undefined,
): SearchAnswer {
  if (observe !== undefined && input.q !== undefined && input.q !== '')
    observe(input.match ?? 'all', seconds, page.total)
  return {
    results: page.results,
    total: page.total,
    limit: query.limit,
    offset: query.offset,
    interpretation: page.interpretation,
    etag: strongEtag(`${index.version}|${searchKey(query)}`),
  }
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
