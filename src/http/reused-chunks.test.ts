import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PassThrough, Readable, Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
import { ReusedChunks } from './reused-chunks.js'
import { SnapshotDownloads } from './snapshot-download.js'

const CHUNK = 64
const CHUNKS = 200

/** A stream of CHUNKS chunks, chunk n filled with byte n % 256, into buffers from `ReusedChunks`. */
function numbered(destination?: Writable): { stream: Readable; chunks: ReusedChunks } {
  let n = 0
  const stream: Readable = new Readable({
    highWaterMark: CHUNK,
    read() {
      if (n === CHUNKS) return void this.push(null)
      const buffer = chunks.take().fill(n++ % 256)
      chunks.pushed(buffer, CHUNK)
      this.push(buffer)
    },
  })
  const chunks = new ReusedChunks(CHUNK, stream, destination)
  return { stream, chunks }
}

/** A destination that reads each chunk's bytes only when it finishes writing it, later, as a socket does. */
function lateReader(): { destination: Writable; received: number[] } {
  const received: number[] = []
  const destination = new Writable({
    highWaterMark: 3 * CHUNK,
    write(chunk: Buffer, _encoding, done) {
      setImmediate(() => {
        received.push(...new Set(chunk))
        done()
      })
    },
  })
  return { destination, received }
}

const expected = Array.from({ length: CHUNKS }, (_, n) => n % 256)

describe('ReusedChunks', () => {
  it('gives a buffer out again only once the destination has written it', async () => {
    const { destination, received } = lateReader()
    const { stream, chunks } = numbered(destination)
    stream.pipe(destination)
    await once(destination, 'finish')
    expect(received).toEqual(expected)
    expect(chunks.allocated).toBeLessThan(10)
  })

  it('makes fresh buffers when something stands between the stream and the destination', async () => {
    const { destination, received } = lateReader()
    const { stream, chunks } = numbered(destination)
    // The PassThrough holds chunks that neither the stream's nor the destination's count includes.
    stream.pipe(new PassThrough({ highWaterMark: 50 * CHUNK })).pipe(destination)
    await once(destination, 'finish')
    expect(received).toEqual(expected)
    expect(chunks.allocated).toBe(CHUNKS)
  })

  it('streams a snapshot over a socket to a slow reader, byte for byte, in a few buffers', async () => {
    const fixture = JSON.parse(
      readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
    ) as Fact[]
    const index = RecordIndex.build({ records: fixture })
    const plain = new SnapshotDownloads({ chunkBytes: 1 }).plain(index)
    const server = createServer((_req, res) => {
      res.setHeader('content-length', plain.length)
      plain.stream(res).pipe(res)
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const { port } = server.address() as AddressInfo
      const res = await new Promise<import('node:http').IncomingMessage>((resolve) =>
        get({ host: '127.0.0.1', port, path: '/' }, resolve),
      )
      const body: Buffer[] = []
      for await (const piece of res as AsyncIterable<Buffer>) {
        body.push(piece)
        await sleep(1) // the socket's buffers fill, so the service waits on the reader
      }
      expect(Buffer.concat(body).toString()).toBe(
        index
          .listed(0, index.size)
          .map((e) => `${e.bytes.toString()}\n`)
          .join(''),
      )
    } finally {
      server.close()
    }
  })
})
