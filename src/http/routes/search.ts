/** GET /api/v1/facts (searchFacts). */
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { searchKey, toSearchQuery } from '../../search/record-index.js'
import { sendJson } from '../conditional.js'
import { ResponseCache } from '../response-cache.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { validateQuery } from '../params.js'
import { API_PREFIX, SearchParamsSchema } from '../schemas.js'

export function searchRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const cache = new ResponseCache()
  app.get(`${API_PREFIX}/facts`, (req, reply) => {
    const live = beginLiveRead(ctx, req, reply)
    if (live === undefined) return reply
    // Keyed by the exact request target: only targets that validated once are ever stored.
    const cached = cache.get(live.index, req.url)
    if (cached !== undefined) return sendJson(req, reply, cached.body, cached.etag)
    const params = validateQuery(SearchParamsSchema, live.query)
    const query = toSearchQuery(params)
    const page = live.index.search(query)
    // Assembled from each record's JSON serialised at load: no JSON.stringify of records per request.
    let body = '{"results":['
    for (let i = 0; i < page.results.length; i++) body += (i === 0 ? '' : ',') + page.results[i]!.json
    body += `],"total":${page.total},"limit":${query.limit},"offset":${query.offset}}`
    // The body is a function of the snapshot and the normalised query, so their hash is a strong ETag.
    const etag = `"${live.index.version}.${createHash('sha1').update(searchKey(query)).digest('base64url')}"`
    const response = { body: Buffer.from(body), etag }
    cache.set(live.index, req.url, response)
    return sendJson(req, reply, response.body, response.etag)
  })
}
