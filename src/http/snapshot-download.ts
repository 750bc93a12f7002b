/**
 * The whole served snapshot as NDJSON: one record per line, each line the record's JSON exactly as
 * the API serves it, in listing order. Both bodies are made ready with the snapshot, before it is
 * served (LiveRecords.prepareWith), so no request builds one:
 *
 * - the plain body is streamed from the snapshot's own record bytes, copied chunk by chunk into a
 *   few buffers reused as the response writes them (RecordIndex.copyListing: no object per record,
 *   no copy kept); its length and ETag come from the snapshot's columns and version;
 * - the gzip body is compressed once per snapshot on zlib's threads, off the serving thread, and kept
 *   with the snapshot as blocks of a few MiB (about a fifth of the NDJSON; see docs/operations.md),
 *   freed when the snapshot is replaced and no download reads it. A small snapshot's is finished
 *   before the snapshot is served; a large one's is started then (at 100 000 records it takes
 *   seconds of zlib's time), and a gzip request that comes before it is done waits for it.
 */
import { createHash } from 'node:crypto'
import { Readable, type Writable } from 'node:stream'
import { promisify } from 'node:util'
import { createGzip, gzip as gzipCallback } from 'node:zlib'
import { strongEtag } from '../core/etag.js'
import type { RecordIndex } from '../core/search/record-index.js'
import { IN_PROCESS_MAX } from '../core/snapshots/build-thread.js'
import { ReusedChunks } from './reused-chunks.js'

/** Bytes copied per chunk of the plain body: large enough to keep writes few, small enough to copy in a fraction of a millisecond. */
const CHUNK_BYTES = 256 * 1024
/** The gzip body is kept in blocks of about this size: one copy of a whole large body would stall the serving thread. */
const BLOCK_BYTES = 8 * 1024 * 1024

const gzipAsync = promisify(gzipCallback)

export type PlainDownload = {
  etag: string
  length: number
  /** A fresh stream of the body; `destination`, the response it is piped into, lets it reuse its buffers. */
  stream(destination?: Writable): Readable
}
export type GzipDownload = { etag: string; length: number; blocks: readonly Buffer[]; stream(): Readable }

/**
 * The snapshot's NDJSON, chunk by chunk, copied from its records as `destination` asks for more,
 * one chunk per turn of the event loop, into buffers reused once `destination` has written them
 * (reused-chunks.ts: fresh ones made a download cost full garbage collections).
 */
function ndjsonStream(index: RecordIndex, chunkBytes = CHUNK_BYTES, destination?: Writable): Readable {
  const size = Math.max(chunkBytes, index.longestRecord + 1)
  let position = 0
  const stream: Readable = new Readable({
    highWaterMark: size,
    read() {
      // One chunk per turn of the event loop. Pushed at once, a client reading as fast as the socket
      // takes the bytes got the whole body in one turn (pipe reads on while the socket accepts): at
      // 100 000 records, 166 MB held the loop 0.4-2.7 s whatever else was waiting.
      setImmediate(() => {
        if (this.destroyed) return
        if (position >= index.size) return void this.push(null)
        const chunk = chunks.take()
        const { next, bytes } = index.copyListing(position, chunk)
        position = next
        chunks.pushed(chunk, bytes)
        this.push(chunk.subarray(0, bytes))
      })
    },
  })
  const chunks = new ReusedChunks(size, stream, destination)
  return stream
}

/** `wholeUpToBytes`: the largest body compressed in one call (else streamed); `chunkBytes`: the plain body's chunks. Tests lower both. */
export type DownloadOptions = { wholeUpToBytes?: number; chunkBytes?: number }

export class SnapshotDownloads {
  readonly #wholeUpTo: number
  readonly #chunkBytes: number
  constructor({ wholeUpToBytes = IN_PROCESS_MAX.bytes, chunkBytes = CHUNK_BYTES }: DownloadOptions = {}) {
    this.#wholeUpTo = wholeUpToBytes
    this.#chunkBytes = chunkBytes
  }

  readonly #plain = new WeakMap<RecordIndex, PlainDownload>()
  readonly #gzip = new WeakMap<RecordIndex, Promise<GzipDownload>>()
  readonly #ready = new WeakMap<RecordIndex, GzipDownload>()

  /**
   * Makes `index`'s bodies ready: the plain body's length, and its gzip body, finished before this
   * resolves for a small snapshot, started for a large one.
   */
  async prepare(index: RecordIndex): Promise<void> {
    const { length } = this.plain(index)
    const gzip = this.gzip(index)
    if (length <= this.#wholeUpTo) await gzip
  }

  /** The gzip body if it is made (undefined before): what a prepared snapshot holds. */
  gzipReady(index: RecordIndex): GzipDownload | undefined {
    return this.#ready.get(index)
  }

  /**
   * The gzip body if it is made or is made whole (a small snapshot: compressed in one call, in
   * milliseconds); undefined while a large one is still being compressed.
   */
  async gzipIfSoon(index: RecordIndex): Promise<GzipDownload | undefined> {
    const ready = this.#ready.get(index)
    if (ready !== undefined) return ready
    if (this.plain(index).length <= this.#wholeUpTo) return this.gzip(index)
    void this.gzip(index).catch(() => undefined) // started, if the preparation did not
    return undefined
  }

  /** The uncompressed body: its ETag (a hash of the snapshot's content), its length, a fresh stream. */
  plain(index: RecordIndex): PlainDownload {
    let plain = this.#plain.get(index)
    if (plain === undefined) {
      // The snapshot's version hashes exactly these lines (each record's JSON and "\n", in listing order).
      plain = {
        etag: strongEtag(`ndjson|${index.version}`),
        length: index.ndjsonBytes,
        stream: (destination) => ndjsonStream(index, this.#chunkBytes, destination),
      }
      this.#plain.set(index, plain)
    }
    return plain
  }

  /** The gzip body and its ETag (a hash of the compressed bytes), computed once per snapshot. */
  gzip(index: RecordIndex): Promise<GzipDownload> {
    let gzip = this.#gzip.get(index)
    if (gzip === undefined) {
      gzip = (
        this.plain(index).length <= this.#wholeUpTo
          ? compressWhole(index)
          : compressStreamed((gzip) => ndjsonStream(index, this.#chunkBytes, gzip))
      ).then((made) => {
        this.#ready.set(index, made)
        return made
      })
      this.#gzip.set(index, gzip)
      gzip.catch(() => this.#gzip.delete(index)) // a failure is not remembered: the next request tries again
    }
    return gzip
  }
}

const gzipDownload = (blocks: Buffer[], etag: string): GzipDownload => ({
  etag,
  length: blocks.reduce((n, b) => n + b.length, 0),
  blocks,
  stream: () => Readable.from(blocks, { objectMode: false }),
})

/** A small snapshot: its NDJSON in one buffer, compressed in one call on zlib's threads. */
async function compressWhole(index: RecordIndex): Promise<GzipDownload> {
  const ndjson = Buffer.allocUnsafe(index.ndjsonBytes)
  index.copyListing(0, ndjson)
  const body = await gzipAsync(ndjson)
  return gzipDownload([body], strongEtag(body))
}

/** A large snapshot: streamed through zlib, the compressed bytes hashed and gathered into blocks as they come. */
async function compressStreamed(ndjsonInto: (gzip: Writable) => Readable): Promise<GzipDownload> {
  const hash = createHash('sha256')
  const blocks: Buffer[] = []
  let pending: Buffer[] = []
  let pendingBytes = 0
  const flush = () => {
    if (pendingBytes > 0) blocks.push(Buffer.concat(pending, pendingBytes))
    pending = []
    pendingBytes = 0
  }
  const gzip = createGzip({ chunkSize: 256 * 1024 })
  // zlib calls back a write once it has read the chunk: the NDJSON's buffers are reused as it goes.
  const compressed = ndjsonInto(gzip).pipe(gzip)
  for await (const chunk of compressed as AsyncIterable<Buffer>) {
    hash.update(chunk)
    pending.push(chunk)
    if ((pendingBytes += chunk.length) >= BLOCK_BYTES) flush()
  }
  flush()
  return gzipDownload(blocks, `"${hash.digest('base64url').slice(0, 27)}"`)
}
