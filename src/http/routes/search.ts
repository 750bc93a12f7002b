/** GET /api/v1/facts (searchFacts). */
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { searchKey, toSearchQuery } from '../../search/record-index.js'
import { sendJson } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { validateQuery } from '../params.js'
import { API_PREFIX, SearchParamsSchema } from '../schemas.js'

export function searchRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get(`${API_PREFIX}/facts`, (req, reply) => {
    const live = beginLiveRead(ctx, req, reply)
    if (live === undefined) return reply
    const params = validateQuery(SearchParamsSchema, live.query)
    const query = toSearchQuery(params)
    const page = live.index.search(query)
    // Assembled from each record's JSON serialised at load: no JSON.stringify of records per request.
    let body = '{"results":['
    for (let i = 0; i < page.results.length; i++) body += (i === 0 ? '' : ',') + page.results[i]!.json
    body += `],"total":${page.total},"limit":${query.limit},"offset":${query.offset}}`
    // The body is a function of the snapshot and the normalised query, so their hash is a strong ETag.
    const etag = `"${live.index.version}.${createHash('sha1').update(searchKey(query)).digest('base64url')}"`
    return sendJson(req, reply, body, etag)
  })
}
