import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../../core/records/record.js'
import { RecordIndex } from '../../core/search/record-index.js'
import { LiveRecords } from '../../core/snapshots/live-records.js'
import { SnapshotSitemaps } from './prepared-sitemaps.js'
import { buildSitemaps, recordEntry } from './sitemap.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const BASE = 'https://records.example'

/** The sitemap as it was made from the parsed records, before the snapshot's columns held their dates. */
const fromRecords = (index: RecordIndex) =>
  buildSitemaps(BASE, [
    { loc: `${BASE}/` },
    ...Array.from({ length: index.size }, (_, doc) => recordEntry(BASE, index.entry(doc).record)),
  ])

describe('SnapshotSitemaps', () => {
  it('is made before the snapshot is served, from its columns, as the records say', async () => {
    const records = new LiveRecords()
    const sitemaps = new SnapshotSitemaps(BASE)
    records.prepareWith((index) => sitemaps.prepare(index))
    const index = RecordIndex.build({ records: fixture })
    expect(sitemaps.ready(index)).toBeUndefined()
    await records.prepare(index)
    const ready = sitemaps.ready(index)!
    expect(ready.root.body.toString()).toBe(fromRecords(index).root)
    expect(ready.root.body.toString()).toContain('<lastmod>')
    expect(ready.parts).toEqual([])
    await expect(sitemaps.prepare(index)).resolves.toBe(ready)
  })

  it('makes a large snapshot’s in a thread of its own, to the same bytes and ETag', async () => {
    const index = RecordIndex.build({ records: fixture })
    const here = await new SnapshotSitemaps(BASE).prepare(index)
    const inThread = await new SnapshotSitemaps(BASE, 0).prepare(index)
    expect(inThread.root.body).toEqual(here.root.body)
    expect(inThread.root.etag).toBe(here.root.etag)
  })
})
