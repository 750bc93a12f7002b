/**
 * Pages and assets as prepared bodies (../prepared-body.ts): a page lives as long as its snapshot's
 * cache entry, an asset as long as the process. Those made once (assets, guides, the home page) are
 * compressed with the best effort; those made per query (a search, a record) with the fast one: Brotli
 * at its best cost a new search page ten times the CPU of building it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { PreparedBody, ifNoneMatchHits, preferredEncoding, taggedFor, type Effort } from '../prepared-body.js'

export class Representation extends PreparedBody {
  /**
   * `text` is the body; `type` its Content-Type. `etag` when the same text is served under two types
   * (each representation needs a tag of its own); the text's hash otherwise.
   */
  constructor(text: string | Buffer, type: string, etag?: string, effort: Effort = 'best') {
    super(text, type, effort, etag)
  }

  get byteLength(): number {
    return this.body.length
  }
}

export type SendOptions = {
  /** Cache-Control; pages revalidate (`no-cache`), hashed assets are immutable. */
  cacheControl: string
  /** Request headers the answer also depends on, besides Accept-Encoding (e.g. Accept). */
  vary?: string
  status?: number
}

/** Sends the best encoding the client accepts, or 304 when its If-None-Match names that encoding's tag. */
export async function sendRepresentation(
  req: FastifyRequest,
  reply: FastifyReply,
  rep: Representation,
  options: SendOptions,
): Promise<FastifyReply> {
  const encoding = rep.compressible ? preferredEncoding(req.headers['accept-encoding']) : undefined
  const etag = taggedFor(rep.etag, encoding)
  reply
    .header('etag', etag)
    .header('cache-control', options.cacheControl)
    .header('vary', options.vary === undefined ? 'Accept-Encoding' : `${options.vary}, Accept-Encoding`)
  if ((options.status ?? 200) === 200 && ifNoneMatchHits(req.headers['if-none-match'], etag))
    return reply.code(304).send()
  if (encoding !== undefined) reply.header('content-encoding', encoding)
  const body = encoding === undefined ? rep.body : await rep.encoded(encoding)
  return reply
    .code(options.status ?? 200)
    .type(rep.type)
    .send(body)
}
