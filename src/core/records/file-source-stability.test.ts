/**
 * A records file written in place, in several steps, is never served half-written: a reload waits
 * until the file is unchanged across two polls. The polls are driven by hand, so "a pause between
 * the two halves" is exactly one poll, whatever the machine's speed.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { silentLog } from '../log.js'
import { followSource, loadInto } from '../snapshots/follow.js'
import { loadInProcess } from '../snapshots/load-snapshot.js'
import { LiveRecords } from '../snapshots/live-records.js'
import { FileRecordSource, type Poller } from './file-source.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const dir = mkdtempSync(join(tmpdir(), 'records-stable-'))
const ndjson = (records: Fact[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('')

/** A poller the test drives: each `poll()` is one look at the file, awaited. */
function handPoller() {
  let look: (() => Promise<void>) | undefined
  const poller: Poller = (poll) => {
    look = poll
    return () => (look = undefined)
  }
  return { poller, poll: () => look!() }
}

describe('FileRecordSource stability', () => {
  it('never serves an NDJSON file caught between its two halves, then serves it whole', async () => {
    const path = join(dir, 'halves.ndjson')
    writeFileSync(path, ndjson(fixture))
    const { poller, poll } = handPoller()
    const source = new FileRecordSource(path, 2_000, poller)
    const records = new LiveRecords()
    await loadInto(source, records, loadInProcess)
    const served: number[] = []
    records.onSwap((index) => served.push(index.size))
    const follower = followSource(source, records, { log: silentLog, load: loadInProcess })
    await poll()

    const next = fixture.map((r) => ({ ...r, title: `${r.title} (2)` }))
    writeFileSync(path, ndjson(next.slice(0, 6))) // the first half, cut at a line boundary: valid NDJSON
    await poll() // the pause between the halves spans a poll, which sees the half
    await follower.settled()
    expect(served).toEqual([]) // the half seen once is not stable yet
    appendFileSync(path, ndjson(next.slice(6)))
    await poll()
    await follower.settled()
    expect(served).toEqual([])
    await poll() // unchanged since the previous poll: stable
    await follower.settled()
    expect(served).toEqual([fixture.length])
    expect(
      records.current!.listed(0, records.current!.size).every((e) => e.record.title.endsWith(' (2)')),
    ).toBe(true)
    await follower.stop()
  })

  it('sees a change made between the load and the start of watching, once stable', async () => {
    const path = join(dir, 'early.json')
    writeFileSync(path, JSON.stringify(fixture))
    const { poller, poll } = handPoller()
    const source = new FileRecordSource(path, 2_000, poller)
    const records = new LiveRecords()
    await loadInto(source, records, loadInProcess)
    writeFileSync(path, JSON.stringify(fixture.slice(0, 3)))
    const follower = followSource(source, records, { log: silentLog, load: loadInProcess })
    await poll()
    await poll()
    await follower.settled()
    expect(records.current!.size).toBe(3)
    await follower.stop()
  })
})
