/**
 * Reading every matching record (docs/spec.md §4.3 "Reading the whole catalogue", §8): page with the largest
 * `limit`, de-duplicate by id, stop when offset reaches total. Two situations throw rather than
 * return a silently short listing: an empty page while offset < total (`PagingAnomalyError`), and
 * more matches than offset can reach (`SearchTooBroadError`, as soon as the total says so).
 */
import { PagingAnomalyError, SearchTooBroadError, UnexpectedResponseError } from './errors.js'
import type { Fact, SearchEnvelope } from './wire.js'

/** Page size of `all()`: the largest the API accepts (docs/spec.md §8; a test pins it to LIMITS.maxLimit). */
export const PAGE_SIZE = 50
/** Largest offset the API accepts (docs/spec.md §8; a test pins it to LIMITS.maxOffset). */
export const MAX_OFFSET = 10_000

/** Reported after each page of `all()`, e.g. to drive a progress bar. */
export type PageEvent = {
  offset: number
  total: number
  /** Distinct records yielded so far, this page included. */
  received: number
}

/** Fetches the page at `offset` with `PAGE_SIZE` records at most. */
export type FetchPage = (offset: number) => Promise<SearchEnvelope>

/** Records beyond this many cannot be reached: the last page starts at MAX_OFFSET. */
const reachableTotal = (pageSize: number = PAGE_SIZE): number => MAX_OFFSET + pageSize

/** Yields every record of every page once, in the server's order. */
export async function* pageAll(
  fetchPage: FetchPage,
  onPage?: (event: PageEvent) => void,
): AsyncGenerator<Fact> {
  const seen = new Set<string>()
  let offset = 0
  for (;;) {
    const page = checkEnvelope(await fetchPage(offset), offset)
    const { total, results } = page
    // Known from the first page: failing now spares the ~200 requests (and the quota) of a doomed listing.
    if (total > reachableTotal()) throw new SearchTooBroadError(total, MAX_OFFSET)
    if (results.length === 0 && offset < total) throw new PagingAnomalyError(offset, total, seen.size)
    const fresh = results.filter((record) => !seen.has(record.id))
    for (const record of fresh) seen.add(record.id)
    onPage?.({ offset, total, received: seen.size })
    yield* fresh
    // Advance by what came, not by the page size: a short page must not make us skip records.
    offset += results.length
    if (offset >= total) return
    if (offset > MAX_OFFSET) throw new SearchTooBroadError(total, MAX_OFFSET)
  }
}

/** Guards the loop above: a body without a numeric total or a results array would page forever or crash. */
function checkEnvelope(page: SearchEnvelope, offset: number): SearchEnvelope {
  const ok =
    typeof page === 'object' &&
    page !== null &&
    Array.isArray(page.results) &&
    Number.isInteger(page.total) &&
    page.total >= 0
  if (!ok) {
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `The search page at offset ${offset} is not a result envelope (results, total)`,
    )
  }
  return page
}
