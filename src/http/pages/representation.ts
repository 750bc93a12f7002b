/**
 * A finished page or asset: its bytes, strong ETag, and compressed variants made on first demand
 * and kept as long as the representation is (a page lives as long as its snapshot's cache entry,
 * an asset as long as the process). Written here rather than with @fastify/compress, which compresses
 * every response again on every request; these bodies never change once built, so they are
 * compressed at most once per encoding.
 */
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import Negotiator from 'negotiator'
import { strongEtag } from '../../core/etag.js'
import { ifNoneMatchHits } from '../conditional.js'

type Encoding = 'br' | 'gzip'
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity' as Encoding]
/** Below this, compression saves less than it costs. */
const MIN_COMPRESSIBLE_BYTES = 1_024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
const compress: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 9: within a few percent of 11 on these texts, twenty times faster (170 ms for Swagger UI's bundle).
  br: (body) => brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipAsync(body, { level: 9 }),
}

export class Representation {
  readonly body: Buffer
  readonly etag: string
  readonly #variants = new Map<Encoding, Promise<Buffer>>()

  /** `text` is the body; `type` its Content-Type. */
  constructor(
    text: string,
    readonly type: string,
  ) {
    this.body = Buffer.from(text)
    this.etag = strongEtag(text)
  }

  get byteLength(): number {
    return this.body.length
  }

  /** The body in `encoding`, compressed once. */
  encoded(encoding: Encoding): Promise<Buffer> {
    let variant = this.#variants.get(encoding)
    if (variant === undefined) this.#variants.set(encoding, (variant = compress[encoding](this.body)))
    return variant
  }
}

export type SendOptions = {
  /** Cache-Control; pages revalidate (`no-cache`), hashed assets are immutable. */
  cacheControl: string
  /** Request headers the answer also depends on, besides Accept-Encoding (e.g. Accept). */
  vary?: string
  status?: number
}

/** The tag of one encoding of a representation: a strong ETag names exact bytes, so each encoding has its own. */
const taggedFor = (etag: string, encoding: string | undefined) => (encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`)

/** Sends the best encoding the client accepts, or 304 when its If-None-Match names that encoding's tag. */
export async function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation, options: SendOptions): Promise<FastifyReply> {
  const accepted = rep.byteLength < MIN_COMPRESSIBLE_BYTES ? 'identity' : new Negotiator(req).encoding(ENCODINGS)
  const encoding = accepted === 'br' || accepted === 'gzip' ? accepted : undefined
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
