/** The first steps every API operation shares: redirect to the live read, then parse the query, then take the snapshot. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { currentSnapshot } from '../core/api/reader.js'
import type { RecordIndex } from '../core/search/record-index.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { ApiAnswers } from './api-answers.js'
import { redirectToLiveRead } from './live-read.js'
import { parseQuery, rawQuery, type QueryPairs } from './query.js'

export type ApiContext = {
  records: LiveRecords
  /** Public base URL for absolute links (Location, catalogue links); root-relative otherwise. */
  publicBaseUrl?: string
  /** The prepared bodies, shared with the fast path. */
  answers: ApiAnswers
}

/**
 * Either the request was answered with the 307 (undefined), or the live read goes on with its
 * snapshot and its query (parsed on first use: a cached answer needs no parsing).
 */
export function beginLiveRead(
  ctx: ApiContext,
  req: FastifyRequest,
  reply: FastifyReply,
): { readonly query: QueryPairs; index: RecordIndex } | undefined {
  if (redirectToLiveRead(req, reply, ctx.publicBaseUrl)) return undefined
  const index = currentSnapshot(ctx.records)
  return {
    index,
    get query() {
      return parseQuery(rawQuery(req.url))
    },
  }
}
