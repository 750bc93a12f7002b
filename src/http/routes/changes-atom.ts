/** GET /changes.atom: the Atom feed of the latest changes (feeds/changes-atom.ts), counted like the pages. */
import type { FastifyInstance } from 'fastify'
import type { Catalogues } from '../../core/api/catalogue.js'
import { validateQuery } from '../../core/api/params.js'
import { currentSnapshot } from '../../core/api/reader.js'
import type { ChangeFeed } from '../../core/changes/change-feed.js'
import { ApiError } from '../../core/errors.js'
import { z } from 'zod'
import { ATOM_TYPE, CHANGES_ATOM_PATH, changesAtom } from '../feeds/changes-atom.js'
import { parseQuery, rawQuery } from '../query.js'

const NoParams = z.strictObject({})

export function changesAtomRoutes(
  app: FastifyInstance,
  deps: { records: Parameters<typeof currentSnapshot>[0]; catalogues: Catalogues; publicBaseUrl?: string },
  feed: ChangeFeed,
): void {
  const base = deps.publicBaseUrl
  const built = new WeakMap<object, string>()
  app.get(CHANGES_ATOM_PATH, (req, reply) => {
    validateQuery(NoParams, parseQuery(rawQuery(req.url)))
    if (base === undefined)
      throw new ApiError(
        'not_found',
        'No Atom feed: its addresses must be absolute, and this instance has no PUBLIC_BASE_URL configured',
      )
    const index = currentSnapshot(deps.records)
    const history = feed.historyFor(index)
    if (history === undefined)
      throw new ApiError('unavailable', 'The changes of the snapshot just published are being read; retry', {
        retryAfterSeconds: 1,
      })
    let xml = built.get(history)
    if (xml === undefined)
      built.set(history, (xml = changesAtom(history, index, base, deps.catalogues.of(index).value.name)))
    return reply.type(ATOM_TYPE).header('cache-control', 'no-cache').send(xml)
  })
}
