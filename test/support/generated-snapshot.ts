/**
 * For tests of the search's evaluation: a snapshot of the sample records and generated ones, built
 * in-process, with its postings decoded on demand.
 */
import { readFileSync } from 'node:fs'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import type { Fact } from '../../src/core/records/record.js'
import type { Postings } from '../../src/core/search/postings.js'
import { decodePostings } from '../../src/core/search/postings-codec.js'
import { SnapshotBuilder } from '../../src/core/search/snapshot-builder.js'

/** The sample records and `count` generated from them with `seed`. */
export function generatedSnapshot(seed: string, count = 3_000) {
  const sample = (
    JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
      records: Fact[]
    }
  ).records
  const builder = new SnapshotBuilder('records')
  ;[...sample, ...new CorpusGenerator({ sample, seed }).records(count)].forEach((r, i) =>
    builder.add(r, `record ${i}`),
  )
  const data = builder.finish()
  const { text } = data
  const decoded = new Map<number, Postings>()
  const postingsOf = (term: number) =>
    decoded.get(term) ??
    decoded.set(term, decodePostings(text.postings, text.termStart[term]!, text.frequency[term]!)).get(term)!
  /** Term numbers, the most frequent first. */
  const byFrequency = Array.from({ length: text.terms.length }, (_, t) => t).sort(
    (a, b) => text.frequency[b]! - text.frequency[a]!,
  )
  return {
    data,
    text,
    postingsOf,
    ranking: { rankClass: data.rankClass, tieRank: data.tieRank },
    byFrequency,
  }
}
