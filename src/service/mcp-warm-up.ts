/**
 * The MCP tools are called once each while the service starts, on the bundled sample through an
 * endpoint of their own (not the served one: its kept answers and the served snapshot's caches stay
 * as clients' requests make them). A process's first call of a tool paid for what runs once in a
 * process whatever the records: the SDK's tools/call path and its input schemas' first parse, the
 * renderers, ICU's French data for the verification ages, the excerpts. That was 16–23 ms of the
 * serving thread for the first `search_facts` on 2 000 records against 2 ms for the second, and on
 * top of the search itself at 1 000 000 records (issue 43, item 3; docs/scale.md).
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server'
import type { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader } from '../core/api/reader.js'
import type { RecordIndex } from '../core/search/record-index.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import type { McpNodeHandlerOptions, createMcpNodeHandler } from '../mcp/node-handler.js'
import { ask } from './mcp-description.js'

type WarmUpOptions = Pick<McpNodeHandlerOptions, 'version' | 'recordPage'> & {
  catalogues: Catalogues
  /** The MCP adapter's factory, loaded by the caller with the rest of the adapters. */
  createHandler: typeof createMcpNodeHandler
}

/** Calls each read tool on `sample`; resolves with the tools that did not answer a result (none, normally). */
export async function warmMcpTools(sample: RecordIndex, options: WarmUpOptions): Promise<string[]> {
  const records = new LiveRecords()
  records.swap(sample)
  const handler = options.createHandler(new LocalRecordReader(records, options.catalogues), {
    version: options.version,
    recordPage: options.recordPage,
    log: { debug: () => undefined },
  })
  const id = sample.listed(0, 1)[0]?.record.id ?? ''
  const calls: [string, Record<string, unknown>][] = [
    ['search_facts', { q: 'vitesse limitation agglomeration jeune conducteur', limit: 50 }],
    ['search', { query: 'stationnement gênant' }],
    ['get_fact', { id }],
    ['fetch', { id }],
    ['get_catalogue', {}],
  ]
  const failed: string[] = []
  try {
    for (const [name, args] of calls) {
      const answer = await ask(handler, LATEST_PROTOCOL_VERSION, 'tools/call', { name, arguments: args })
      if (answer.result === undefined || answer.result.isError === true) failed.push(name)
    }
  } finally {
    await handler.close()
  }
  return failed
}
