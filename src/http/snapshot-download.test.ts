import { readFileSync } from 'node:fs'
import { text } from 'node:stream/consumers'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { strongEtag } from '../core/etag.js'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { SnapshotDownloads } from './snapshot-download.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]

describe('SnapshotDownloads', () => {
  it('streams the snapshot as NDJSON of the served JSON, with its exact length', async () => {
    const index = RecordIndex.build({ records: fixture })
    const plain = new SnapshotDownloads().plain(index)
    const body = await text(plain.stream())
    expect(body).toBe(
      index
        .listed(0, index.size)
        .map((e) => `${e.bytes.toString()}\n`)
        .join(''),
    )
    expect(plain.length).toBe(Buffer.byteLength(body))
  })

  it('compresses once per snapshot, and again for a new snapshot', async () => {
    const downloads = new SnapshotDownloads()
    const index = RecordIndex.build({ records: fixture })
    const first = downloads.gzip(index)
    expect(downloads.gzip(index)).toBe(first)
    const { blocks, etag } = await first
    expect(gunzipSync(Buffer.concat(blocks)).toString()).toBe(await text(downloads.plain(index).stream()))
    const next = RecordIndex.build({ records: fixture.slice(1) })
    expect(downloads.gzip(next)).not.toBe(first)
    expect((await downloads.gzip(next)).etag).not.toBe(etag)
  })

  it("tags the gzip body with the service's one ETag scheme, a hash of the bytes sent", async () => {
    for (const options of [{}, { wholeUpToBytes: 0, chunkBytes: 1 }]) {
      const { blocks, etag, length } = await new SnapshotDownloads(options).gzip(
        RecordIndex.build({ records: fixture }),
      )
      const body = Buffer.concat(blocks)
      expect(etag).toBe(strongEtag(body))
      expect(length).toBe(body.length)
      expect(etag).toMatch(/^"[\w-]{27}"$/)
    }
  })

  it('streams and compresses a large snapshot chunk by chunk, to the same bytes as a small one', async () => {
    const index = RecordIndex.build({ records: fixture })
    const whole = new SnapshotDownloads()
    // One record per chunk, and the streamed compression: the path of a snapshot of megabytes.
    const chunked = new SnapshotDownloads({ wholeUpToBytes: 0, chunkBytes: 1 })
    const stream = chunked.plain(index).stream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    expect(chunks.length).toBeGreaterThan(1)
    expect(Buffer.concat(chunks).toString()).toBe(await text(whole.plain(index).stream()))
    const gzip = await chunked.gzip(index)
    expect(gunzipSync(Buffer.concat(gzip.blocks)).toString()).toBe(Buffer.concat(chunks).toString())
    const sent: Buffer[] = []
    for await (const block of gzip.stream()) sent.push(block as Buffer)
    expect(Buffer.concat(sent)).toEqual(Buffer.concat(gzip.blocks))
  })

  it('is ready before the snapshot is served: the gzip body is made by the preparation, not by a request', async () => {
    const records = new LiveRecords()
    const downloads = new SnapshotDownloads()
    records.prepareWith((index) => downloads.prepare(index))
    const index = RecordIndex.build({ records: fixture })
    expect(downloads.gzipReady(index)).toBeUndefined()
    await records.prepare(index)
    records.swap(index)
    const ready = downloads.gzipReady(index)
    expect(ready).toBeDefined()
    await expect(downloads.gzip(index)).resolves.toBe(ready)
    // A large snapshot's is started by the preparation and finished on zlib's threads.
    const large = new SnapshotDownloads({ wholeUpToBytes: 0 })
    const next = RecordIndex.build({ records: fixture.slice(1) })
    await large.prepare(next)
    // Meanwhile a gzip request is told to take the plain body, not to wait.
    expect(await large.gzipIfSoon(next)).toBeUndefined()
    await expect.poll(() => large.gzipReady(next)).toBeDefined()
    expect(await large.gzipIfSoon(next)).toBe(large.gzipReady(next))
  })
})
