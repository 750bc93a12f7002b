/** A search as the index takes it, its answer, and the key two equal searches share. */
import type { Kind } from '../records/record.js'
import type { IndexedRecord } from './indexed-record.js'
import type { Interpretation } from './interpret.js'
import type { MatchMode } from './match-mode.js'

/** A search, normalised: build it with `toIndexQuery`. */
export type IndexQuery = {
  /** The text searched, as given; undefined lists records without a text filter. */
  q?: string
  kind?: Kind
  /** The only region the API knows is "france" (records whose regions hold "France"). */
  region?: 'france'
  /**
   * `all` (the contract's rule): every required word present. `best`: when no record holds every
   * word, the records holding the most of them, ranked (best-match.ts). Default `all`.
   */
  match?: MatchMode
  /** Page size; the HTTP layer allows 1..50. */
  limit: number
  offset: number
}

export type SearchPage = {
  total: number
  results: readonly IndexedRecord[]
  /** How `q` was read: present whenever `q` was given (docs/api.md). */
  interpretation?: Interpretation
}

/** Search parameters as the index takes them: only its own fields, `match` defaulted. */
export function toIndexQuery(input: IndexQuery): IndexQuery {
  return {
    q: input.q,
    kind: input.kind,
    region: input.region,
    match: input.match ?? 'all',
    limit: input.limit,
    offset: input.offset,
  }
}

/**
 * A key equal for two queries exactly when they give the same answer from a snapshot (for ETags and
 * caches). `q` is kept as typed: the answer's interpretation shows the words as typed.
 */
export function searchKey(query: IndexQuery): string {
  return JSON.stringify([
    query.q ?? null,
    query.kind ?? '',
    query.region ?? '',
    query.match ?? 'all',
    query.limit,
    query.offset,
  ])
}
