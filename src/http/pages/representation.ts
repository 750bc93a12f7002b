/**
 * Pages and assets as prepared bodies (../prepared-body.ts), compressed off the event loop with the
 * best effort: a page lives as long as its snapshot's cache entry, an asset as long as the process.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { PreparedBody, ifNoneMatchHits, preferredEncoding, taggedFor } from '../prepared-body.js'

export class Representation extends PreparedBody {
  /**
   * `text` is the body; `type` its Content-Type. `etag` when the same text is served under two types
   * (each representation needs a tag of its own); the text's hash otherwise.
   */
  constructor(text: string, type: string, etag?: string) {
    super(text, type, 'best', etag)
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
export async function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation, options: SendOptions): Promise<FastifyReply> {
  const encoding = rep.compressible ? preferredEncoding(req.headers['accept-encoding']) : undefined
  const etag = taggedFor(rep.etag, encoding)
  reply
    .header('etag', etag)
    .header('cache-control', options.cacheControl)
    .header('vary', options.vary === undefined ? 'Accept-Encoding' : `${options.vary}, Accept-Encoding`)
  if ((options.status ?? 200) === 200 && ifNoneMatchHits(req.headers['if-none-match'], etag)) return reply.code(304).send()
  if (encoding !== undefined) reply.header('content-encoding', encoding)
  const body = encoding === undefined ? rep.body : await rep.encoded(encoding)
  return reply.code(options.status ?? 200).type(rep.type).send(body)
}
