/**
 * The whole served snapshot as NDJSON: one record per line, each line the record's JSON exactly as
 * the API serves it, in listing order. The plain body is streamed from the snapshot's own
 * pre-serialised records (no copy kept: it costs no memory beyond the snapshot). The gzip body is
 * compressed once per snapshot, on the first request that asks for it, off the event loop (zlib's
 * thread pool), and kept with the snapshot: its memory is the compressed size (about a fifth of the
 * NDJSON; see docs/operations.md), freed when the snapshot is replaced and no download reads it.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { strongEtag } from '../core/etag.js'
import type { RecordIndex } from '../core/search/record-index.js'

/** Bytes gathered per chunk of the streamed body: large enough to keep writes few. */
const CHUNK_BYTES = 64 * 1024

const NEWLINE = Buffer.from('\n')

/** The plain body's lines, gathered into chunks of about CHUNK_BYTES. */
function* ndjsonChunks(index: RecordIndex): Generator<Buffer> {
  let parts: Buffer[] = []
  let size = 0
  for (const entry of index.inListingOrder()) {
    parts.push(entry.bytes, NEWLINE)
    size += entry.bytes.length + 1
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(parts, size)
      parts = []
      size = 0
    }
  }
  if (size > 0) yield Buffer.concat(parts, size)
}

export type PlainDownload = { etag: string; length: number; stream(): Readable }
export type GzipDownload = { etag: string; body: Buffer }

export class SnapshotDownloads {
  readonly #plain = new WeakMap<RecordIndex, PlainDownload>()
  readonly #gzip = new WeakMap<RecordIndex, Promise<GzipDownload>>()

  /** The uncompressed body: its ETag (a hash of the snapshot's content), its length, a fresh stream. */
  plain(index: RecordIndex): PlainDownload {
    let plain = this.#plain.get(index)
    if (plain === undefined) {
      let length = 0
      for (const entry of index.inListingOrder()) length += entry.bytes.length + 1
      // The snapshot's version hashes exactly these lines (each record's JSON and "\n", in listing order).
      plain = {
        etag: strongEtag(`ndjson|${index.version}`),
        length,
        stream: () => Readable.from(ndjsonChunks(index), { objectMode: false }),
      }
      this.#plain.set(index, plain)
    }
    return plain
  }

  /** The gzip body and its ETag (a hash of the compressed bytes), computed once per snapshot. */
  gzip(index: RecordIndex): Promise<GzipDownload> {
    let gzip = this.#gzip.get(index)
    if (gzip === undefined) {
      gzip = compress(index)
      this.#gzip.set(index, gzip)
      gzip.catch(() => this.#gzip.delete(index)) // a failure is not remembered: the next request tries again
    }
    return gzip
  }
}

async function compress(index: RecordIndex): Promise<GzipDownload> {
  const parts: Buffer[] = []
  await pipeline(
    Readable.from(ndjsonChunks(index), { objectMode: false }),
    createGzip(),
    async (compressed: AsyncIterable<Buffer>) => {
      for await (const part of compressed) parts.push(part)
    },
  )
  const body = Buffer.concat(parts)
  return { body, etag: strongEtag(body) }
}
