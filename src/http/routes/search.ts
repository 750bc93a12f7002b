/** GET /api/v1/facts (searchFacts). */
import type { FastifyInstance } from 'fastify'
import { validateQuery } from '../../core/api/params.js'
import { API_PREFIX, SearchParamsSchema } from '../../core/api/schemas.js'
import { answerSearchInTurns, searchEnvelopeBytes } from '../../core/api/search.js'
import { JSON_TYPE, jsonAnswer } from '../api-answers.js'
import { conditionsOf, sendAnswer } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { PreparedBody } from '../prepared-body.js'

export function searchRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const cache = ctx.answers.searches
  app.get(`${API_PREFIX}/facts`, async (req, reply) => {
    const live = beginLiveRead(ctx, req)
    // Keyed by the exact request target: only targets that validated once are ever stored.
    let prepared = ctx.answers.searchAnswer(live.index, req.raw)
    if (prepared === undefined) {
      const params = validateQuery(SearchParamsSchema, live.query)
      const answer = await answerSearchInTurns(live.index, params, ctx.records.searchObserver)
      prepared = cache.set(
        live.index,
        req.url,
        new PreparedBody(searchEnvelopeBytes(answer), JSON_TYPE, 'fast', answer.etag),
      )
    }
    return sendAnswer(reply, jsonAnswer(prepared, conditionsOf(req)))
  })
}
