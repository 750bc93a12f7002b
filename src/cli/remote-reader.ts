/**
 * The MCP tools over a remote API: every tool call is a request to a running service through the
 * reference client, drawn from that service's quota (`reference-records mcp --base-url`).
 */
import { NotFoundError, type RecordsClient } from '../client/index.js'
import type { RecordReader, SearchInput } from '../core/api/reader.js'
import type { Catalogue, SearchEnvelope } from '../core/api/schemas.js'
import type { Fact } from '../core/records/record.js'
import { LIMITS } from '../core/api/schemas.js'

export class RemoteRecordReader implements RecordReader {
  constructor(private readonly client: RecordsClient) {}

  search(params: SearchInput): Promise<SearchEnvelope> {
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

  async catalogue(): Promise<Catalogue> {
    return (await this.client.catalogue()) as Catalogue
  }

  /** Pages of at most the API's largest limit; past the API's largest offset the listing ends (an empty page). */
  async list(offset: number, max: number): Promise<{ records: Fact[]; total: number }> {
    if (offset > LIMITS.maxOffset)
      return { records: [], total: (await this.client.search({ limit: 1 })).total }
    const page = await this.client.search({ limit: Math.min(max, LIMITS.maxLimit), offset })
    return { records: page.results, total: page.total }
  }
}
