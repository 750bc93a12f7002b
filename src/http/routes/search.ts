/** GET /api/v1/facts (searchFacts). */
import type { FastifyInstance } from 'fastify'
import { validateQuery } from '../../core/api/params.js'
import { API_PREFIX, SearchParamsSchema } from '../../core/api/schemas.js'
import { answerSearch, searchEnvelopeJson } from '../../core/api/search.js'
import { sendJson } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { ResponseCache } from '../response-cache.js'

export function searchRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const cache = new ResponseCache()
  app.get(`${API_PREFIX}/facts`, (req, reply) => {
    const live = beginLiveRead(ctx, req, reply)
    if (live === undefined) return reply
    // Keyed by the exact request target: only targets that validated once are ever stored.
    const cached = cache.get(live.index, req.url)
    if (cached !== undefined) return sendJson(req, reply, cached.body, cached.etag)
    const params = validateQuery(SearchParamsSchema, live.query)
    const answer = answerSearch(live.index, params)
    const response = cache.set(live.index, req.url, { body: Buffer.from(searchEnvelopeJson(answer)), etag: answer.etag })
    return sendJson(req, reply, response.body, response.etag)
  })
}
