/** GET /api/v1/ (getCatalogue) and GET /api/v1/openapi.json: bodies built once per snapshot / per start. */
import type { FastifyInstance } from 'fastify'
import { validateQuery } from '../../core/api/params.js'
import { API_PREFIX, NoParamsSchema } from '../../core/api/schemas.js'
import { jsonAnswer } from '../api-answers.js'
import { conditionsOf, sendAnswer } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { parseQuery, rawQuery } from '../query.js'

export function catalogueRoutes(app: FastifyInstance, ctx: ApiContext): void {
  // `/api/v1` answers like `/api/v1/` (docs/contract.md "Addresses"); both keep their own path in the 307.
  for (const url of [API_PREFIX, `${API_PREFIX}/`]) {
    app.get(url, (req, reply) => {
      const live = beginLiveRead(ctx, req)
      validateQuery(NoParamsSchema, live.query)
      return sendAnswer(reply, jsonAnswer(ctx.answers.catalogue(live.index), conditionsOf(req)))
    })
  }

  // The description needs no records: served before the first snapshot too (a replica waiting for its first publication).
  app.get(`${API_PREFIX}/openapi.json`, (req, reply) => {
    validateQuery(NoParamsSchema, parseQuery(rawQuery(req.url)))
    return sendAnswer(reply, jsonAnswer(ctx.answers.openapi, conditionsOf(req)))
  })
}
