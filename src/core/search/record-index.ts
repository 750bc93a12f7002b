/**
 * A served snapshot: its storage (record-store.ts) with a searcher over it (searcher.ts). Built once
 * per load (snapshot-builder.ts, in a worker thread for the service); a reload builds a new one and
 * swaps it in, so a request always reads one consistent snapshot. Only the wiring is here.
 */
import { setImmediate } from 'node:timers/promises'
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
  /** The searches in turns asked so far, run one at a time (`searchInTurns`). */
  #inTurns: Promise<unknown> = Promise.resolve()

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

  /**
   * `search`, a step a turn of the event loop: first what it would read cold (`readAhead`), each
   * step a turn, then its evaluation, a slice a turn (steps.ts). A search with nothing cold and
   * little to evaluate is answered in the turn it is asked. At 1 000 000 records, eight common
   * words read cold held the serving thread 60–90 ms at once, and the `match=all` of eight of the
   * broadest words 40–55 ms warm (issue 43, item 3).
   *
   * Such searches run one at a time, in the order asked: a suspended one keeps the index's work
   * spaces (text-index.ts, `#lease`), and the next would otherwise make its own, a few MB each at
   * that size. `seconds` is the time the search itself held the thread, its slices summed.
   */
  searchInTurns(query: IndexQuery): Promise<{ page: SearchPage; seconds: number }> {
    const turn = this.#inTurns.then(() => this.#searchInTurns(query))
    this.#inTurns = turn.catch(() => undefined)
    return turn
  }

  async #searchInTurns(query: IndexQuery): Promise<{ page: SearchPage; seconds: number }> {
    const steps = this.readAhead(query)
    for (const step of steps) {
      await setImmediate()
      step()
    }
    if (steps.length > 0) await setImmediate()
    const search = this.#searcher.searchInSteps(query)
    let seconds = 0
    for (;;) {
      const startedAt = performance.now()
      const next = search.next()
      seconds += (performance.now() - startedAt) / 1000
      if (next.done === true) return { page: next.value, seconds }
      await setImmediate()
    }
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
