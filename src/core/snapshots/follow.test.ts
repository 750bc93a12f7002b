import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { silentLog } from '../log.js'
import { FileRecordSource } from '../records/file-source.js'
import type { Fact } from '../records/record.js'
import { collectRecords, type ReadInfo, type RecordSource } from '../records/source.js'
import type { RecordIndex } from '../search/record-index.js'
import { followSource, loadInto } from './follow.js'
import { loadInProcess } from './load-snapshot.js'
import { LiveRecords } from './live-records.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const { write } = temporaryFiles('records-', 'json')

/** A source whose loads finish when the test says so, and which counts them. */
function controlledSource() {
  const pending: ((records: Fact[]) => void)[] = []
  let change: () => void = () => {}
  const source: RecordSource & { loads: number; finish(records: Fact[]): void; change(): void } = {
    origin: 'test:controlled',
    loads: 0,
    read(consume) {
      source.loads++
      return new Promise<ReadInfo>((resolve) =>
        pending.push((records) => {
          records.forEach((record, i) => consume(record, `record ${i}`))
          resolve({})
        }),
      )
    },
    load: () => collectRecords(source),
    spec: () => {
      throw new Error('a test source cannot be opened in a worker')
    },
    watch(onChange) {
      change = onChange
      return () => (change = () => {})
    },
    async close() {},
    finish(records) {
      pending.shift()!(records)
    },
    change: () => change(),
  }
  return source
}

describe('following a records file', () => {
  const followers: { stop(): Promise<void> }[] = []
  afterEach(async () => {
    await Promise.all(followers.splice(0).map((f) => f.stop()))
  })

  it('swaps in a valid update and refuses a bad one, keeping the good snapshot', async () => {
    const path = write(JSON.stringify(fixture))
    const source = new FileRecordSource(path, 20)
    const records = new LiveRecords()
    const first = await loadInto(source, records, loadInProcess)
    const errors: unknown[] = []
    const follower = followSource(source, records, {
      log: { ...silentLog, error: (o: unknown) => errors.push(o) },
      load: loadInProcess,
    })
    followers.push(follower)
    const swapped = new Promise<RecordIndex>((resolve) => records.onSwap(resolve))

    writeFileSync(path, JSON.stringify(fixture.slice(0, 5)))
    const second = await swapped
    expect(second.size).toBe(5)
    expect(records.current).toBe(second)

    writeFileSync(path, JSON.stringify([...fixture.slice(0, 5), { ...fixture[6], id: 'nope' }]) + ' ')
    await expect.poll(() => errors.length, { timeout: 5_000 }).toBe(1)
    await follower.settled()
    expect(records.current).toBe(second)
    expect(JSON.stringify(errors[0])).toMatch(/record 5 \(id \\"nope\\"\)/)
    expect(first.size).toBe(fixture.length)
  })
})

describe('followSource', () => {
  it('coalesces changes signalled during a long load into one more load', async () => {
    const source = controlledSource()
    const records = new LiveRecords()
    const follower = followSource(source, records, { log: silentLog, load: loadInProcess })
    source.change()
    for (let i = 0; i < 5; i++) source.change() // a burst while the first reload runs
    expect(source.loads).toBe(1)
    source.finish(fixture.slice(0, 2))
    await expect.poll(() => source.loads).toBe(2)
    source.finish(fixture.slice(0, 3))
    await follower.settled()
    expect(source.loads).toBe(2)
    expect(records.current?.size).toBe(3)
    await follower.stop()
  })

  it('stop() waits for the reload in progress and swaps nothing in after it', async () => {
    const source = controlledSource()
    const records = new LiveRecords()
    const follower = followSource(source, records, { log: silentLog, load: loadInProcess })
    source.change()
    let stopped = false
    const stopping = follower.stop().then(() => (stopped = true))
    await new Promise((r) => setTimeout(r, 10))
    expect(stopped).toBe(false)
    source.finish(fixture)
    await stopping
    expect(records.current).toBeUndefined()
    source.change()
    expect(source.loads).toBe(1)
  })

  it('warns when a reload leaves no records (empty is valid, rarely meant)', async () => {
    const source = controlledSource()
    const warnings: [object, string][] = []
    const follower = followSource(source, new LiveRecords(), {
      log: { ...silentLog, warn: (fields, message) => warnings.push([fields, message]) },
      load: loadInProcess,
    })
    source.change()
    source.finish(fixture)
    await follower.settled()
    expect(warnings).toEqual([])
    source.change()
    source.finish([])
    await follower.settled()
    expect(warnings).toEqual([
      [
        { origin: 'test:controlled', records: 0 },
        'the records source holds no records; the service answers with an empty catalogue',
      ],
    ])
    await follower.stop()
  })
})
