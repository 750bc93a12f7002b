import { readFileSync } from 'node:fs'
import { text } from 'node:stream/consumers'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { strongEtag } from '../core/etag.js'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
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
    const { body, etag } = await first
    expect(gunzipSync(body).toString()).toBe(await text(downloads.plain(index).stream()))
    const next = RecordIndex.build({ records: fixture.slice(1) })
    expect(downloads.gzip(next)).not.toBe(first)
    expect((await downloads.gzip(next)).etag).not.toBe(etag)
  })

  it("tags the gzip body with the service's one ETag scheme, a hash of the bytes sent", async () => {
    const { body, etag } = await new SnapshotDownloads().gzip(RecordIndex.build({ records: fixture }))
    expect(etag).toBe(strongEtag(body))
    expect(etag).toMatch(/^"[\w-]{27}"$/)
  })
})
