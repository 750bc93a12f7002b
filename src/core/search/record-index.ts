/**
 * A served snapshot: its storage (record-store.ts) with a searcher over it (searcher.ts). Built once
 * per load (snapshot-builder.ts, in a worker thread for the service); a reload builds a new one and
 * swaps it in, so a request always reads one consistent snapshot. Only the wiring is here.
 */
import type { RecordBatch } from '../records/source.js'
import type { IndexQuery, SearchPage } from './index-query.js'
import { RecordStore } from './record-store.js'
import { Searcher, type SearchVocabulary } from './searcher.js'
import { SnapshotBuilder } from './snapshot-builder.js'
import type { SnapshotData } from './snapshot-data.js'

export { IndexedRecord } from './indexed-record.js'
export { searchKey, toIndexQuery, type IndexQuery, type SearchPage } from './index-query.js'
export { withPreparedAnswers } from './prepared-snapshot.js'
export type { SitemapColumns } from './record-store.js'

export class RecordIndex extends RecordStore {
  readonly #searcher: Searcher

  /** `previous`: the snapshot a reload built this one beside (RecordStore). */
  constructor(
    data: SnapshotData,
    { vocabulary, previous }: { vocabulary?: SearchVocabulary; previous?: RecordIndex } = {},
  ) {
    super(data, previous)
    this.#searcher = new Searcher(data, this, vocabulary)
  }

  /** A snapshot of records held in memory, built here (tests, tools, small sets); the service builds in a worker. */
  static build(batch: RecordBatch, vocabulary?: SearchVocabulary): RecordIndex {
    const builder = new SnapshotBuilder('records')
    batch.records.forEach((record, i) => builder.add(record, `record ${i}`))
    return new RecordIndex(builder.finish({ publishedAt: batch.publishedAt, snapshot: batch.snapshot }), {
      vocabulary,
    })
  }

  search(query: IndexQuery): SearchPage {
    return this.#searcher.search(query)
  }

  /** What this search would read cold, as steps to run one a turn before it (searcher.ts). */
  readAhead(query: IndexQuery): (() => void)[] {
    return this.#searcher.readAhead(query)
  }

  /** The most postings a search built one word's bits from on this snapshot (text-index.ts; the scale tests read it). */
  get largestDenseDecode(): number {
    return this.#searcher.largestDenseDecode
  }

  /** Broad one-word answers prepared (prepared-answers.ts). */
  get preparedAnswers(): number {
    return this.#searcher.preparedAnswers
  }
}
