/**
 * GET /api/v1/changes (listChanges): what the publications after `since` added, changed and
 * removed, paged with a cursor. Like the download, not redirected (po_live does not apply; po_live=1
 * is accepted): an answer is about publications, which a live read would not refresh. Counted in
 * the quota like every request under /api/v1.
 */
import type { FastifyInstance } from 'fastify'
import { answerChanges, CHANGES_PATH, ChangesParamsSchema } from '../../core/api/changes.js'
import { validateQuery } from '../../core/api/params.js'
import { currentSnapshot } from '../../core/api/reader.js'
import { API_PREFIX } from '../../core/api/schemas.js'
import type { ChangeFeed } from '../../core/changes/change-feed.js'
import { ApiError } from '../../core/errors.js'
import { JSON_TYPE } from '../api-answers.js'
import type { ApiContext } from '../live-read-request.js'
import { recordPath } from '../pages/record-view.js'
import { parseQuery, rawQuery } from '../query.js'

export function changesRoutes(app: FastifyInstance, ctx: ApiContext, feed: ChangeFeed): void {
  const base = ctx.publicBaseUrl ?? ''
  const links = {
    record: (id: string) => `${base}${API_PREFIX}/facts/${id}`,
    page: (id: string) => `${base}${recordPath(id)}`,
  }
  app.get(CHANGES_PATH, (req, reply) => {
    const params = validateQuery(ChangesParamsSchema, parseQuery(rawQuery(req.url)))
    const index = currentSnapshot(ctx.records)
    const history = feed.historyFor(index)
    if (history === undefined)
      throw new ApiError(
        'unavailable',
        'The change feed of the snapshot just published is being read; retry',
        {
          retryAfterSeconds: 1,
        },
      )
    const answer = answerChanges(history, params, links)
    return reply
      .type(JSON_TYPE)
      .header('cache-control', 'no-cache')
      .header('x-publication-id', answer.publication.id)
      .send(JSON.stringify(answer))
  })
}
