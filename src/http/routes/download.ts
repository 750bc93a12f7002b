/**
 * GET /api/v1/facts.ndjson (downloadFacts): the whole current snapshot in one response, for reusers
 * who need every record (paging stops at offset 10 000). Not redirected (po_live does not apply;
 * `po_live=1` is accepted and ignored), counted as one request, gzip when the client accepts it.
 * Revalidation is cheap: a strong ETag (If-None-Match) and Last-Modified, the snapshot's publication
 * time (If-Modified-Since), answer 304.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import Negotiator from 'negotiator'
import { validateQuery } from '../../core/api/params.js'
import { currentSnapshot } from '../../core/api/reader.js'
import { publicationIdOf, snapshotChecksum } from '../../core/changes/snapshot-changes.js'
import { API_PREFIX, NoParamsSchema } from '../../core/api/schemas.js'
import { ifNoneMatchHits } from '../prepared-body.js'
import type { ApiContext } from '../live-read-request.js'
import { parseQuery, rawQuery } from '../query.js'
import { SnapshotDownloads } from '../snapshot-download.js'

const DOWNLOAD_PATH = `${API_PREFIX}/facts.ndjson`
const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8'

export function downloadRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const downloads = new SnapshotDownloads()
  const stop = ctx.records.prepareWith((index) => downloads.prepare(index).catch(() => undefined))
  app.addHook('onClose', async () => void stop())
  app.get(DOWNLOAD_PATH, async (req, reply) => {
    validateQuery(NoParamsSchema, parseQuery(rawQuery(req.url)))
    const index = currentSnapshot(ctx.records)
    // gzip first: our preference when the client weighs both equally ("gzip, deflate, br").
    const gzip = new Negotiator(req).encoding(['gzip', 'identity']) === 'gzip'
    const lastModified = new Date(index.publishedAt)
    reply
      .header('vary', 'accept-encoding')
      .header('cache-control', 'no-cache')
      .header('last-modified', lastModified.toUTCString())
      // Headers, not a first line: a spec-only client reads every line as a record. The change feed
      // follows from this publication; the checksum is of the lines sorted by id (docs/api.md).
      .header('x-publication-id', publicationIdOf(index))
      .header('x-records-checksum', `sha256=${await snapshotChecksum(index)}`)
    // Until a large snapshot's gzip body is made (seconds of zlib's time after a reload; minutes at
    // 1 000 000 records on a busy machine), a gzip request gets the plain body at once rather than
    // waiting with nothing sent: identity is always acceptable (RFC 9110 §12.5.3), and Vary says so.
    const body = gzip ? await downloads.gzipIfSoon(index) : undefined
    if (body !== undefined) {
      reply.header('etag', body.etag)
      if (notModified(req, body.etag, lastModified)) return reply.code(304).send()
      return reply
        .type(NDJSON_TYPE)
        .header('content-encoding', 'gzip')
        .header('content-length', body.length)
        .send(body.blocks.length === 1 ? body.blocks[0] : body.stream())
    }
    const plain = downloads.plain(index)
    reply.header('etag', plain.etag)
    if (notModified(req, plain.etag, lastModified)) return reply.code(304).send()
    return reply.type(NDJSON_TYPE).header('content-length', plain.length).send(plain.stream(reply.raw))
  })
}

/** RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since, to the second. */
function notModified(req: FastifyRequest, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match']
  if (ifNoneMatch !== undefined) return ifNoneMatchHits(ifNoneMatch, etag)
  const since = Date.parse(req.headers['if-modified-since'] ?? '')
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since
}
