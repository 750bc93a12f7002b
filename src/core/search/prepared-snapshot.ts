/**
 * What a build hands on with its snapshot besides the records: the broad one-word answers, the
 * lexicon's tables and the region's listing, made in the build's thread so that the serving one
 * makes none of them on a first search.
 */
import type { PrepareOptions } from './prepared-answers.js'
import { RecordStore, franceOrder, holdingItsArenas } from './record-store.js'
import { Searcher } from './searcher.js'
import type { SnapshotData } from './snapshot-data.js'
import { prebuiltDense } from './text-index.js'

/**
 * `data` with its broad one-word answers prepared (prepared-answers.ts) and its lexicon's tables made
 * (lexicon.ts): in the build's thread, off the serving one, which would otherwise make the tables on
 * the first search.
 */
export function withPreparedAnswers(data: SnapshotData, options?: PrepareOptions): SnapshotData {
  // The arenas first: the answers and the snapshot handed on must read the same arena numbers.
  const held = holdingItsArenas(data, undefined)
  const searcher = new Searcher(held, new RecordStore(held))
  return {
    ...held,
    text: { ...held.text, dense: prebuiltDense(held.text) },
    prepared: searcher.prepareBroadAnswers(options),
    lexicon: searcher.lexiconTables(),
    franceOrder: franceOrder(held),
  }
}
