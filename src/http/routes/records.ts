/** GET /api/v1/facts/{id} (getFact). */
import type { FastifyInstance } from 'fastify'
import { validatePath, validateQuery } from '../../core/api/params.js'
import { API_PREFIX, FactPathSchema, NoParamsSchema } from '../../core/api/schemas.js'
import { ApiError } from '../../core/errors.js'
import { jsonAnswer } from '../api-answers.js'
import { conditionsOf, sendAnswer } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'

export function recordRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get<{ Params: { id: string } }>(`${API_PREFIX}/facts/:id`, (req, reply) => {
    const live = beginLiveRead(ctx, req)
    validateQuery(NoParamsSchema, live.query)
    const { id } = validatePath(FactPathSchema, req.params)
    const prepared = ctx.answers.record(live.index, id)
    if (prepared === undefined)
      throw new ApiError('not_found', `No record with id "${id}"; search with ${API_PREFIX}/facts`)
    return sendAnswer(reply, jsonAnswer(prepared, conditionsOf(req)))
  })
}
