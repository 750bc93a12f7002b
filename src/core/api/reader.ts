/**
 * What the API's operations read, transport aside: the served snapshot, searched, listed and read
 * by id, and its catalogue. The MCP tools read through `RecordReader`, so the same tools can run over
 * this process's snapshot (`LocalRecordReader`) or over a remote API (the CLI's remote reader).
 */
import { ApiError } from '../errors.js'
import type { LiveRecords } from '../snapshots/live-records.js'
import type { Fact } from '../records/record.js'
import type { RecordIndex } from '../search/record-index.js'
import type { Catalogues } from './catalogue.js'
import type { Catalogue, SearchEnvelope } from './schemas.js'
import { answerSearchInTurns, searchEnvelope, type SearchInput } from './search.js'

export type { SearchInput } from './search.js'

export interface RecordReader {
  search(params: SearchInput): Promise<SearchEnvelope>
  /** The record, or undefined when no record has this id. */
  get(id: string): Promise<Fact | undefined>
  catalogue(): Promise<Catalogue>
  /** Up to `max` records from `offset`, in listing order (for resource listings). */
  list(offset: number, max: number): Promise<{ records: Fact[]; total: number }>
  /** The record whose original page (its `url`) is `url`, when the reader can look records up by url. */
  byUrl?(url: string): Promise<Fact | undefined>
  /** Up to `max` ids starting with `text`, when the reader can list ids by prefix (for completion). */
  idsStartingWith?(text: string, max: number): Promise<string[]>
}

/** Seconds a client should wait when no snapshot is loaded yet: a load normally takes well under that. */
const NOT_READY_RETRY_AFTER_SECONDS = 5

/** The served snapshot, or the `unavailable` error every operation answers before the first load. */
export function currentSnapshot(records: LiveRecords): RecordIndex {
  const index = records.current
  if (index === undefined) {
    throw new ApiError('unavailable', 'No records are loaded yet; retry shortly', {
      retryAfterSeconds: NOT_READY_RETRY_AFTER_SECONDS,
    })
  }
  return index
}

export class LocalRecordReader implements RecordReader {
  constructor(
    private readonly records: LiveRecords,
    private readonly catalogues: Catalogues,
  ) {}

  async search(params: SearchInput): Promise<SearchEnvelope> {
    return searchEnvelope(
      await answerSearchInTurns(currentSnapshot(this.records), params, this.records.searchObserver),
    )
  }

  async get(id: string): Promise<Fact | undefined> {
    return currentSnapshot(this.records).get(id)?.record
  }

  async catalogue(): Promise<Catalogue> {
    return this.catalogues.of(currentSnapshot(this.records)).value
  }

  async list(offset: number, max: number): Promise<{ records: Fact[]; total: number }> {
    const index = currentSnapshot(this.records)
    return { records: index.listed(offset, max).map((e) => e.record), total: index.size }
  }

  async byUrl(url: string): Promise<Fact | undefined> {
    return currentSnapshot(this.records).findByUrl(url)?.record
  }

  async idsStartingWith(text: string, max: number): Promise<string[]> {
    return currentSnapshot(this.records).idsStartingWith(text, max)
  }
}
