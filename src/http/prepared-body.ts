/**
 * A finished body: its bytes, its strong ETag, and its compressed variants, each made at most once
 * and kept as long as the body is (an API answer as long as its snapshot's cache entry, a page or
 * an asset as long as theirs). Written here rather than with @fastify/compress, which compresses
 * every response again on every request: these bodies never change once built.
 */
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'
import Negotiator from 'negotiator'
import { strongEtag } from '../core/etag.js'

export type Encoding = 'br' | 'gzip'
/** Below this, compression saves less than it costs, and the body is always sent as it is. */
const MIN_COMPRESSIBLE_BYTES = 1_024

/**
 * How hard to compress. `fast` for API answers, compressed on the request thread the first time a
 * client asks (a 20 KB search answer in about 0.3 ms); `best` for pages and assets, compressed off
 * it (Brotli 9: within a few percent of 11, twenty times faster; 170 ms for Swagger UI's bundle).
 */
export type Effort = 'fast' | 'best'
const BROTLI_QUALITY: Record<Effort, number> = { fast: 5, best: 9 }
const GZIP_LEVEL: Record<Effort, number> = { fast: 6, best: 9 }

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
const brotliOptions = (effort: Effort, size: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
})

export class PreparedBody {
  readonly body: Buffer
  readonly etag: string
  readonly #variants = new Map<Encoding, Buffer | Promise<Buffer>>()

  /**
   * `etag` when the caller already has the body's (records: computed at load); `fields`, header
   * fields (name, value, …) that describe the body and go out with its 200 and its 304 alike.
   */
  constructor(
    body: Buffer | string,
    readonly type: string,
    readonly effort: Effort,
    etag?: string,
    readonly fields: readonly string[] = [],
  ) {
    this.body = typeof body === 'string' ? Buffer.from(body) : body
    this.etag = etag ?? strongEtag(this.body)
  }

  get compressible(): boolean {
    return this.body.length >= MIN_COMPRESSIBLE_BYTES
  }

  /** Bytes held besides the body: the compressed variants made so far. */
  get variantBytes(): number {
    let n = 0
    for (const v of this.#variants.values()) if (Buffer.isBuffer(v)) n += v.length
    return n
  }

  /** The body in `encoding`, compressed now the first time (for bodies of kilobytes). */
  encodedSync(encoding: Encoding): Buffer {
    const made = this.#variants.get(encoding)
    if (Buffer.isBuffer(made)) return made
    const variant = ownCopy(
      encoding === 'br'
        ? brotliCompressSync(this.body, brotliOptions(this.effort, this.body.length))
        : gzipSync(this.body, { level: GZIP_LEVEL[this.effort] }),
    )
    this.#variants.set(encoding, variant)
    return variant
  }

  /** The body in `encoding`, compressed off the event loop the first time (for large bodies). */
  encoded(encoding: Encoding): Promise<Buffer> {
    const made = this.#variants.get(encoding)
    if (made !== undefined) return Promise.resolve(made)
    const variant = (
      encoding === 'br'
        ? brotliAsync(this.body, brotliOptions(this.effort, this.body.length))
        : gzipAsync(this.body, { level: GZIP_LEVEL[this.effort] })
    ).then((compressed) => {
      const bytes = ownCopy(compressed)
      this.#variants.set(encoding, bytes)
      return bytes
    })
    this.#variants.set(encoding, variant)
    return variant
  }
}

/**
 * A copy in memory of its own. zlib returns its output as a view into a larger chunk (16–64 KiB), and
 * small Buffers share Node's 8 KiB pool: a kept view would hold the whole chunk or slab alive.
 */
export function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length)
  bytes.copy(copy)
  return copy
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison, and "*" matches any current representation. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque
  })
}

/** The tag of one encoding of a body: a strong ETag names exact bytes, so each encoding has its own. */
export const taggedFor = (etag: string, encoding: Encoding | undefined): string =>
  encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`

const OFFERED = ['br', 'gzip', 'identity']
/** Accept-Encoding values seen, and what they choose: clients send a handful of distinct values. */
const chosen = new Map<string, Encoding | undefined>()
const MAX_REMEMBERED = 256

/** The encoding to send for an Accept-Encoding value (RFC 9110 §12.5.3), Brotli first; undefined for identity. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined
  if (chosen.has(acceptEncoding)) return chosen.get(acceptEncoding)
  const best = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encoding(OFFERED)
  const encoding = best === 'br' || best === 'gzip' ? best : undefined
  if (chosen.size >= MAX_REMEMBERED) chosen.clear()
  chosen.set(acceptEncoding, encoding)
  return encoding
}
