/**
 * The first steps every API operation shares once admitted (the live-read redirect is decided at
 * admission, admission.ts): take the snapshot, and parse the query on first use.
 */
import type { FastifyRequest } from 'fastify'
import { currentSnapshot } from '../core/api/reader.js'
import type { RecordIndex } from '../core/search/record-index.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { ApiAnswers } from './api-answers.js'
import { parseQuery, rawQuery, type QueryPairs } from './query.js'

export type ApiContext = {
  records: LiveRecords
  /** Public base URL for absolute links (Location, catalogue links); root-relative otherwise. */
  publicBaseUrl?: string
  /** The prepared bodies, shared with the fast path. */
  answers: ApiAnswers
}

/** The live read's snapshot and its query (parsed on first use: a cached answer needs no parsing). */
export function beginLiveRead(
  ctx: ApiContext,
  req: FastifyRequest,
): { readonly query: QueryPairs; index: RecordIndex } {
  const index = currentSnapshot(ctx.records)
  return {
    index,
    get query() {
      return parseQuery(rawQuery(req.url))
    },
  }
}
