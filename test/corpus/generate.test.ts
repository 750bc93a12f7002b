/**
 * The corpus generator (scripts/generate-corpus.ts): same seed and count give the same bytes, every
 * record is valid, the kinds follow the sample's proportions, and the output is streamed. The script
 * itself, run as a process, is checked in test/e2e/generate-corpus.test.ts.
 */
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { KINDS, type Kind } from '../../src/core/records/record.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { writeLines } from '../../scripts/corpus/ndjson-writer.js'
import { expectDistinctIds, expectValidUniqueRecords } from '../support/properties/corpus.js'

const { records: sample } = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
const generator = (seed = 'test') => new CorpusGenerator({ sample, seed })
const text = (seed: string, count: number) => [...generator(seed).lines(count)].join('')

describe('CorpusGenerator', () => {
  it('gives byte-identical output for the same seed and count, and different output for another seed', () => {
    expect(text('a', 300)).toBe(text('a', 300))
    expect(text('b', 300)).not.toBe(text('a', 300))
  })

  it('makes a smaller corpus the prefix of a larger one with the same seed', () => {
    expect(text('a', 1_000).startsWith(text('a', 200))).toBe(true)
  })

  // generate.scale.test.ts writes 2 000, and 100 000 ids below.
  it('writes 200 records that all pass the record schema, with unique ids and urls', () => {
    expectValidUniqueRecords(generator(), 200)
  })

  it('mixes kinds in the proportions of the sample, within one percentage point', () => {
    const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>
    const gen = generator()
    const total = 20_000
    for (let n = 0; n < total; n++) counts[gen.kindOf(n)]++
    for (const kind of KINDS) {
      const expected = sample.filter((r) => r.kind === kind).length / sample.length
      expect(Math.abs(counts[kind] / total - expected), kind).toBeLessThan(0.01)
    }
  })

  it('composes records lazily, so a huge count costs nothing until it is read', () => {
    const lines = generator().lines(1e12)
    const first = [lines.next().value, lines.next().value, lines.next().value]
    expect(first.every((line) => typeof line === 'string' && line.endsWith('}\n'))).toBe(true)
  })
})

describe('sequenceHex', () => {
  it('is a bijection: distinct sequence numbers give distinct 16-hex ids', () => {
    expectDistinctIds(10_000)
  })
})

describe('writeLines', () => {
  it('respects backpressure: the stream never buffers more than about one chunk', async () => {
    let maxBuffered = 0
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk, _encoding, done) {
        maxBuffered = Math.max(maxBuffered, slow.writableLength)
        setImmediate(done)
      },
    })
    const bytes = await writeLines(generator().lines(2_000), slow, 64 * 1024)
    expect(bytes).toBeGreaterThan(2_000 * 500) // fifteen chunks and more
    expect(maxBuffered).toBeLessThan(2 * 64 * 1024 + 16 * 1024) // one chunk in flight, one queued at most
  })
})
