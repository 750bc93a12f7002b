/** The first steps every API operation shares: redirect to the live read, then parse the query, then take the snapshot. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.js'
import type { LiveRecords } from '../records/live-records.js'
import type { RecordIndex } from '../search/record-index.js'
import { redirectToLiveRead } from './live-read.js'
import { parseQuery, rawQuery, type QueryPairs } from './query.js'

export type ApiContext = {
  records: LiveRecords
  /** Public base URL for absolute links (Location, catalogue links); root-relative otherwise. */
  publicBaseUrl?: string
}

/** Seconds a client should wait when no snapshot is loaded yet: a load normally takes well under that. */
const NOT_READY_RETRY_AFTER_SECONDS = 5

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
  const index = ctx.records.current
  if (index === undefined) {
    throw new ApiError('unavailable', 'No records are loaded yet; retry shortly', {
      headers: { 'retry-after': String(NOT_READY_RETRY_AFTER_SECONDS) },
    })
  }
  return {
    index,
    get query() {
      return parseQuery(rawQuery(req.url))
    },
  }
}
