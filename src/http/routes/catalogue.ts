/** GET /api/v1/ (getCatalogue) and GET /api/v1/openapi.json: bodies built once per snapshot / per start. */
import type { FastifyInstance } from 'fastify'
import type { Catalogues } from '../../core/api/catalogue.js'
import { validateQuery } from '../../core/api/params.js'
import { API_PREFIX, NoParamsSchema } from '../../core/api/schemas.js'
import { strongEtag } from '../../core/etag.js'
import type { RecordIndex } from '../../core/search/record-index.js'
import { sendJson } from '../conditional.js'
import { beginLiveRead, type ApiContext } from '../live-read-request.js'
import { redirectToLiveRead } from '../live-read.js'
import { parseQuery, rawQuery } from '../query.js'
import { buildOpenApiDocument } from '../openapi.js'

type Body = { json: string; etag: string }

export function catalogueRoutes(app: FastifyInstance, ctx: ApiContext, catalogues: Catalogues): void {
  const etags = new WeakMap<RecordIndex, string>()
  const catalogueOf = (index: RecordIndex): Body => {
    const { json } = catalogues.of(index)
    let etag = etags.get(index)
    if (etag === undefined) etags.set(index, (etag = strongEtag(json)))
    return { json, etag }
  }
  const openapiJson = JSON.stringify(buildOpenApiDocument(ctx.publicBaseUrl, catalogues.options.contact))
  const openapi: Body = { json: openapiJson, etag: strongEtag(openapiJson) }

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

  // The description needs no records: served before the first snapshot too (a replica waiting for its first publication).
  app.get(`${API_PREFIX}/openapi.json`, (req, reply) => {
    if (redirectToLiveRead(req, reply, ctx.publicBaseUrl)) return reply
    validateQuery(NoParamsSchema, parseQuery(rawQuery(req.url)))
    return sendJson(req, reply, openapi.json, openapi.etag)
  })
}
