/**
 * What the MCP tools read: the same records as the API, either in this process (the HTTP endpoint,
 * or stdio over a records file) or through the reference client from a remote API (stdio with
 * --base-url, so a desktop user draws from the remote server's quota).
 */
import type { RecordsClient } from '../client/client.js'
import { NotFoundError } from '../client/errors.js'
import { buildCatalogue, type CatalogueOptions } from '../http/catalogue.js'
import type { Catalogue, SearchEnvelope } from '../http/schemas.js'
import type { LiveRecords } from '../records/live-records.js'
import type { Fact, Kind } from '../records/record.js'
import { toSearchQuery } from '../search/record-index.js'

export type ReaderSearch = { q?: string; kind?: Kind; region?: 'france'; limit: number; offset: number }

export interface RecordReader {
  search(params: ReaderSearch): Promise<SearchEnvelope>
  /** The record, or undefined when no record has this id. */
  get(id: string): Promise<Fact | undefined>
  catalogue(): Promise<Catalogue>
  /** Up to `max` records for resource listings. */
  list(max: number): Promise<Fact[]>
}

export class LocalRecordReader implements RecordReader {
  constructor(
    private readonly records: LiveRecords,
    private readonly catalogueOptions: CatalogueOptions,
  ) {}

  #index() {
    const index = this.records.current
    if (index === undefined) throw new Error('No records are loaded yet; retry shortly')
    return index
  }

  async search(params: ReaderSearch): Promise<SearchEnvelope> {
    const query = toSearchQuery(params)
    const page = this.#index().search(query)
    return { results: page.results.map((e) => e.record), total: page.total, limit: query.limit, offset: query.offset }
  }

  async get(id: string): Promise<Fact | undefined> {
    return this.#index().get(id)?.record
  }

  async catalogue(): Promise<Catalogue> {
    return buildCatalogue(this.#index(), this.catalogueOptions)
  }

  async list(max: number): Promise<Fact[]> {
    return this.#index().all.slice(0, max).map((e) => e.record)
  }
}

export class RemoteRecordReader implements RecordReader {
  constructor(private readonly client: RecordsClient) {}

  search(params: ReaderSearch): Promise<SearchEnvelope> {
    return this.client.search(params)
  }

  async get(id: string): Promise<Fact | undefined> {
    try {
      return await this.client.get(id)
    } catch (err) {
      if (err instanceof NotFoundError) return undefined
      throw err
    }
  }

  catalogue(): Promise<Catalogue> {
    return this.client.catalogue()
  }

  async list(max: number): Promise<Fact[]> {
    const page = await this.client.search({ limit: Math.min(max, 50) })
    return page.results
  }
}
