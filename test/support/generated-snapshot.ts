/**
 * For tests of the search's evaluation: a snapshot of the sample records and generated ones, built
 * in-process, with its postings decoded on demand.
 */
import { readFileSync } from 'node:fs'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import type { Fact } from '../../src/core/records/record.js'
import type { Postings } from '../../src/core/search/postings.js'
import { decodePostings } from '../../src/core/search/postings-codec.js'
import { SnapshotBuilder, searchedText } from '../../src/core/search/snapshot-builder.js'
import type { TermGroup } from '../../src/core/search/match-plan.js'
import { SearchOracle, type OracleGroup } from './search-oracle.js'

/** The sample records and `count` generated from them with `seed`. */
export function generatedSnapshot(seed: string, count = 3_000) {
  const sample = (
    JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
      records: Fact[]
    }
  ).records
  const builder = new SnapshotBuilder('records')
  const records = [...sample, ...new CorpusGenerator({ sample, seed }).records(count)]
  records.forEach((r, i) => builder.add(r, `record ${i}`))
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
  /** The reference evaluator over the same records, read from their text (test/support/search-oracle.ts). */
  const oracle = new SearchOracle(
    records.map((record, doc) => ({
      ...searchedText(record),
      rankClass: data.rankClass[doc]!,
      tieRank: data.tieRank[doc]!,
    })),
  )
  /** A query's groups by word, as the reference evaluator reads them. */
  const byWord = (groups: readonly TermGroup[]): OracleGroup[] =>
    groups.map((group) =>
      Object.assign(
        group.map(({ slots, weight }) => ({
          slots: slots.map((slot) =>
            slot.map(({ term, weight: w }) => ({ word: text.terms[term]!, weight: w })),
          ),
          weight,
        })),
        // How many query words the group was read from, which best match weighs.
        group.words === undefined ? {} : { words: group.words },
      ),
    )
  return {
    data,
    oracle,
    byWord,
    text,
    postingsOf,
    ranking: { rankClass: data.rankClass, tieRank: data.tieRank },
    byFrequency,
  }
}
