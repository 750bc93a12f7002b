/**
 * The corpus generator's promises that grow with the count: every record valid with a unique id and
 * url, and record ids that never collide. Shared by the unit tier (a few hundred records, 10 000 ids)
 * and the scale tier (2 000 records, 100 000 ids).
 */
import { expect } from 'vitest'
import type { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import { hashSeed } from '../../../scripts/corpus/prng.js'
import { sequenceHex } from '../../../scripts/corpus/record-id.js'
import { FactSchema, ID_PREFIX_BY_KIND } from '../../../src/core/records/record.js'

/** The first `count` records of `generator` all pass the record schema, with unique ids and urls. */
export function expectValidUniqueRecords(generator: CorpusGenerator, count: number): void {
  const records = [...generator.records(count)]
  const ids = new Set<string>()
  const urls = new Set<string>()
  for (const record of records) {
    const parsed = FactSchema.safeParse(record)
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
    expect(record.id.startsWith(ID_PREFIX_BY_KIND[record.kind])).toBe(true)
    ids.add(record.id)
    urls.add(record.url)
  }
  expect(ids.size).toBe(count)
  expect(urls.size).toBe(count)
}

/** Sequence numbers 0 to `count` - 1 give distinct 16-hex ids. */
export function expectDistinctIds(count: number): void {
  const key = hashSeed('ids:test')
  const seen = new Set<string>()
  for (let n = 0; n < count; n++) seen.add(sequenceHex(n, key))
  expect(seen.size).toBe(count)
  expect([...seen].every((hex) => /^[0-9a-f]{16}$/.test(hex))).toBe(true)
}
