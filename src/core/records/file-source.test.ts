import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { FileRecordSource } from './file-source.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const { dir, write } = temporaryFiles('records-', 'json')
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
    const batch = await load(
      JSON.stringify({ about: 'sample', published_at: '2026-11-20T09:00:00Z', records: fixture }),
    )
    expect(batch).toEqual({ records: fixture, publishedAt: '2026-11-20T09:00:00.000Z' })
  })
})

describe('FileRecordSource refuses bad files, naming the record, the field and the problem', () => {
  const bad = (i: number, patch: Record<string, unknown>) =>
    fixture.map((r, j) => (j === i ? { ...r, ...patch } : r))
  it.each([
    [
      'an id off the pattern',
      bad(2, { id: 'fait-XYZ' }),
      /record 2 \(id "fait-XYZ"\): field "id": must be a prefix/,
    ],
    [
      'an id whose prefix disagrees with the kind',
      bad(0, { kind: 'lesson' }),
      /record 0 \(id "fait-[0-9a-f]{16}"\): field "id": a record of kind "lesson" must have an id starting with "page-"/,
    ],
    [
      'a duplicate id',
      bad(3, { id: fixture[1]!.id, kind: 'fact' }),
      /record 3 \(id "fait-[0-9a-f]{16}"\): field "id": duplicate id, first used by record 1/,
    ],
    ['an unknown kind', bad(1, { kind: 'rule' }), /record 1 .*field "kind": Invalid option/],
    [
      'an impossible date',
      bad(0, { verified_at: '2026-02-30' }),
      /record 0 .*field "verified_at": Invalid ISO date/,
    ],
    ['a missing title', bad(4, { title: undefined }), /record 4 .*field "title"/],
    ['a javascript: url', bad(5, { url: 'javascript:alert(1)' }), /record 5 .*field "url"/],
    ['an unknown field', bad(6, { titel: 'x' }), /record 6 .*record: unknown field\(s\) "titel"/],
    [
      'a bad source type',
      bad(0, { sources: [{ url: 'https://x.example/', label: 'x', type: 'blog' }] }),
      /record 0 .*field "sources.0.type"/,
    ],
    [
      'verification_scope without verified_at',
      bad(3, { verification_scope: 'x' }),
      /record 3 .*field "verification_scope": is only allowed together with verified_at/,
    ],
  ])('%s', async (_name, records, message) => {
    await expect(load(JSON.stringify(records))).rejects.toThrow(message)
  })

  it('names NDJSON problems by line', async () => {
    const lines = fixture.map((r) => JSON.stringify(r))
    lines[4] = '{"id": oops}'
    await expect(load(lines.join('\n'))).rejects.toThrow(
      /line 5, column 8: not valid JSON \(Unexpected token 'o'\)$/,
    )
    lines[4] = JSON.stringify({ ...fixture[4], kind: 'nope' })
    await expect(load(lines.join('\n'))).rejects.toThrow(/line 5 .*field "kind"/)
  })
  it.each([
    ['an empty file', '', /the file is empty/],
    ['broken JSON', '[{"id":', /not valid JSON/],
    ['a snapshot whose records are not an array', '{"records": {}}', /"records" must be an array/],
    [
      'a bad published_at',
      JSON.stringify({ published_at: 'yesterday', records: [] }),
      /"published_at" must be an RFC 3339 date-time/,
    ],
  ])('%s', async (_name, content, message) => {
    await expect(load(content)).rejects.toThrow(message)
  })
  it('names a missing file by its absolute path, even when given a relative one', async () => {
    await expect(new FileRecordSource(join(dir, 'missing.json')).load()).rejects.toThrow(
      `records: file:${join(dir, 'missing.json')}: cannot read the file: no such file (ENOENT)`,
    )
    const relative = new FileRecordSource('no-such-dir/records.json')
    expect(relative.origin).toBe(`file:${join(process.cwd(), 'no-such-dir/records.json')}`)
    await expect(relative.load()).rejects.toThrow(
      `records: ${relative.origin}: cannot read the file: no such file (ENOENT)`,
    )
  })
  it('lists many problems at once, capped', async () => {
    const records = fixture.map((r) => ({ ...r, regions: 'France' }))
    await expect(load(JSON.stringify(records))).rejects.toThrow(
      /13 problem\(s\), nothing loaded[\s\S]*record 12/,
    )
  })
})

describe('FileRecordSource.close', () => {
  it('stops only its own watcher: another source following the same file keeps reloading', async () => {
    const path = write(JSON.stringify(fixture))
    const closed = new FileRecordSource(path, 20)
    const kept = new FileRecordSource(path, 20)
    await closed.load()
    await kept.load()
    let changes = 0
    closed.watch(() => {})
    const unwatch = kept.watch(() => changes++)
    try {
      await closed.close()
      writeFileSync(path, JSON.stringify(fixture.slice(0, 2)))
      await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThan(0)
    } finally {
      unwatch()
    }
  })
})

describe('a JSON document too large to read whole', () => {
  it('is refused at once, with the way out (NDJSON); the same records as NDJSON load', async () => {
    const records = JSON.parse(
      readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
    ) as unknown[]
    const limit = 4_096 // bytes, for the test: the service's is 400 MiB
    const document = write(JSON.stringify(records))
    const source = new FileRecordSource(document, undefined, undefined, limit)
    await expect(source.load()).rejects.toThrow(
      `records: ${source.origin}: a JSON document of ${+(statSync(document).size / 2 ** 20).toFixed(3)} MiB is more than is read whole (0.004 MiB, below V8's string limit); write the records as NDJSON, one record per line, which is read line by line at any size`,
    )
    const ndjson = write(records.map((r) => JSON.stringify(r)).join('\n'))
    expect((await new FileRecordSource(ndjson, undefined, undefined, limit).load()).records).toHaveLength(
      records.length,
    )
  })
})
