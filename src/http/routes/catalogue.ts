/** GET /api/v1/ (getCatalogue) and GET /api/v1/openapi.json: bodies built once per snapshot / per start. */
import type { FastifyInstance } from 'fastify'
import type { RecordIndex } from '../../search/record-index.js'
import { buildCatalogue, type CatalogueOptions } from '../catalogue.js'
import { strongEtag } from '../../etag.js'
import { sendJson } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { buildOpenApiDocument } from '../openapi.js'
import { validateQuery } from '../params.js'
import { API_PREFIX, NoParamsSchema } from '../schemas.js'

type Body = { json: string; etag: string }
const toBody = (value: unknown): Body => {
  const json = JSON.stringify(value)
  return { json, etag: strongEtag(json) }
}

export function catalogueRoutes(app: FastifyInstance, ctx: ApiContext, options: Omit<CatalogueOptions, 'publicBaseUrl'>): void {
  const catalogues = new WeakMap<RecordIndex, Body>()
  const catalogueOf = (index: RecordIndex): Body => {
    let body = catalogues.get(index)
    if (body === undefined) catalogues.set(index, (body = toBody(buildCatalogue(index, { ...options, publicBaseUrl: ctx.publicBaseUrl }))))
    return body
  }
  const openapi = toBody(buildOpenApiDocument(ctx.publicBaseUrl))

  // `/api/v1` answers like `/api/v1/` (CONTRACT.md "Addresses"); both keep their own path in the 307.
  for (const url of [API_PREFIX, `${API_PREFIX}/`]) {
    app.get(url, (req, reply) => {
      const live = beginLiveRead(ctx, req, reply)
      if (live === undefined) return reply
      validateQuery(NoParamsSchema, live.query)
      const body = catalogueOf(live.index)
      return sendJson(req, reply, body.json, body.etag)
    })
  }

  app.get(`${API_PREFIX}/openapi.json`, (req, reply) => {
    const live = beginLiveRead(ctx, req, reply)
    if (live === undefined) return reply
    validateQuery(NoParamsSchema, live.query)
    return sendJson(req, reply, openapi.json, openapi.etag)
  })
}
