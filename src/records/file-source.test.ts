import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RecordIndex } from '../search/record-index.js'
import { FileRecordSource } from './file-source.js'
import { followSource, loadInto } from './follow.js'
import { LiveRecords } from './live-records.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8')) as Fact[]
const dir = mkdtempSync(join(tmpdir(), 'records-'))
let n = 0
const write = (content: string) => {
  const path = join(dir, `records-${n++}.json`)
  writeFileSync(path, content)
  return path
}
const load = (content: string) => new FileRecordSource(write(content)).load()

describe('FileRecordSource formats', () => {
  it('reads a JSON array, dating the snapshot by the file', async () => {
    const batch = await load(JSON.stringify(fixture))
    expect(batch.records).toEqual(fixture)
    expect(Date.parse(batch.publishedAt!)).toBeGreaterThan(Date.now() - 60_000)
  })
  it('reads NDJSON, blank lines and a BOM allowed', async () => {
    const batch = await load(`\uFEFF${fixture.map((r) => JSON.stringify(r)).join('\n\n')}\n`)
    expect(batch.records).toEqual(fixture)
  })
  it('reads one-record NDJSON', async () => {
    expect((await load(JSON.stringify(fixture[0]))).records).toEqual([fixture[0]])
  })
  it('reads a snapshot object with its publication date', async () => {
    const batch = await load(JSON.stringify({ about: 'sample', published_at: '2026-11-20T09:00:00Z', records: fixture }))
    expect(batch).toEqual({ records: fixture, publishedAt: '2026-11-20T09:00:00.000Z' })
  })
})

describe('FileRecordSource refuses bad files, naming the record, the field and the problem', () => {
  const bad = (i: number, patch: Record<string, unknown>) => fixture.map((r, j) => (j === i ? { ...r, ...patch } : r))
  it.each([
    ['an id off the pattern', bad(2, { id: 'fait-XYZ' }), /record 2 \(id "fait-XYZ"\): field "id": must be a prefix/],
    ['an id whose prefix disagrees with the kind', bad(0, { kind: 'lesson' }), /record 0 \(id "fait-[0-9a-f]{16}"\): field "id": a record of kind "lesson" must have an id starting with "page-"/],
    ['a duplicate id', bad(3, { id: fixture[1]!.id, kind: 'fact' }), /record 3 \(id "fait-[0-9a-f]{16}"\): field "id": duplicate id, first used by record 1/],
    ['an unknown kind', bad(1, { kind: 'rule' }), /record 1 .*field "kind": Invalid option/],
    ['an impossible date', bad(0, { verified_at: '2026-02-30' }), /record 0 .*field "verified_at": Invalid ISO date/],
    ['a missing title', bad(4, { title: undefined }), /record 4 .*field "title"/],
    ['a javascript: url', bad(5, { url: 'javascript:alert(1)' }), /record 5 .*field "url"/],
    ['an unknown field', bad(6, { titel: 'x' }), /record 6 .*record: unknown field\(s\) "titel"/],
    ['a bad source type', bad(0, { sources: [{ url: 'https://x.example/', label: 'x', type: 'blog' }] }), /record 0 .*field "sources.0.type"/],
    ['verification_scope without verified_at', bad(3, { verification_scope: 'x' }), /record 3 .*field "verification_scope": is only allowed together with verified_at/],
  ])('%s', async (_name, records, message) => {
    await expect(load(JSON.stringify(records))).rejects.toThrow(message)
  })

  it('names NDJSON problems by line', async () => {
    const lines = fixture.map((r) => JSON.stringify(r))
    lines[4] = '{"id": oops}'
    await expect(load(lines.join('\n'))).rejects.toThrow(/line 5: not valid JSON/)
    lines[4] = JSON.stringify({ ...fixture[4], kind: 'nope' })
    await expect(load(lines.join('\n'))).rejects.toThrow(/line 5 .*field "kind"/)
  })
  it.each([
    ['an empty file', '', /the file is empty/],
    ['broken JSON', '[{"id":', /not valid JSON/],
    ['a snapshot whose records are not an array', '{"records": {}}', /"records" must be an array/],
    ['a bad published_at', JSON.stringify({ published_at: 'yesterday', records: [] }), /"published_at" must be an RFC 3339 date-time/],
  ])('%s', async (_name, content, message) => {
    await expect(load(content)).rejects.toThrow(message)
  })
  it('names a missing file', async () => {
    await expect(new FileRecordSource(join(dir, 'missing.json')).load()).rejects.toThrow(/records: file:.*missing\.json: cannot read the file \(ENOENT\)/)
  })
  it('lists many problems at once, capped', async () => {
    const records = fixture.map((r) => ({ ...r, regions: 'France' }))
    await expect(load(JSON.stringify(records))).rejects.toThrow(/13 problem\(s\), nothing loaded[\s\S]*record 12/)
  })
})

describe('following a records file', () => {
  it('sees a change made between the load and the start of watching', async () => {
    const path = write(JSON.stringify(fixture))
    const source = new FileRecordSource(path, 60_000) // the poller alone would not look again in this test
    const records = new LiveRecords()
    await loadInto(source, records)
    writeFileSync(path, JSON.stringify(fixture.slice(0, 3)))
    const swapped = new Promise<RecordIndex>((resolve) => records.onSwap(resolve))
    const follower = followSource(source, records, { info: () => {}, error: () => {} })
    try {
      expect((await swapped).size).toBe(3)
    } finally {
      follower.stop()
    }
  })

  const followers: { stop(): void }[] = []
  afterEach(() => followers.splice(0).forEach((f) => f.stop()))
  const silent = { info: () => {}, error: () => {} }

  it('swaps in a valid update and refuses a bad one, keeping the good snapshot', async () => {
    const path = write(JSON.stringify(fixture))
    const source = new FileRecordSource(path, 20)
    const records = new LiveRecords()
    const first = await loadInto(source, records)
    const errors: unknown[] = []
    const follower = followSource(source, records, { ...silent, error: (o: unknown) => errors.push(o) })
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
