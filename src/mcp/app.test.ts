/**
 * The MCP app's place in the server: the tools that show records point to the ui:// record card, and
 * a client that renders apps gets exactly the tool results a client that renders none gets (the app
 * reads those results; it changes none). The card itself in a browser: test/browser/mcp-app.test.ts.
 */
import { Client } from '@modelcontextprotocol/client'
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader } from '../core/api/reader.js'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { RECORD_CARD_URI } from './app.js'
import { buildMcpServer } from './server.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const RULE = 'fait-643b555e754f953d'
const NOW = new Date('2026-11-28T12:00:00Z')

const clients: Client[] = []
async function connect(capabilities: Record<string, unknown>): Promise<Client> {
  const live = new LiveRecords()
  live.swap(RecordIndex.build({ records: fixture, publishedAt: '2026-11-20T09:00:00Z' }))
  const reader = new LocalRecordReader(
    live,
    new Catalogues({ requestsPerMinute: 120, contact: 'c@example.org' }),
  )
  const server = await buildMcpServer(reader, {
    version: '0.0.0',
    recordPage: (r) => `https://records.example.org/fiches/${r.id}`,
    now: () => NOW,
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'test', version: '1' }, { capabilities })
  await client.connect(clientSide)
  clients.push(client)
  return client
}

let plain: Client
let withApps: Client
beforeAll(async () => {
  plain = await connect({})
  withApps = await connect({ extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } })
})
afterAll(() => Promise.all(clients.map((c) => c.close())))

describe('the record card app', () => {
  it('is what search_facts, get_fact and fetch point to, in _meta.ui.resourceUri', async () => {
    const { tools } = await plain.listTools()
    const pointing = tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } })?.ui?.resourceUri)
    expect(pointing.map((t) => t.name).sort()).toEqual(['fetch', 'get_fact', 'search_facts'])
    for (const tool of pointing) expect(tool._meta).toMatchObject({ ui: { resourceUri: RECORD_CARD_URI } })
    expect(RECORD_CARD_URI).toMatch(/^ui:\/\//)
  })

  it('keeps tools/list within 8 KB, the app’s metadata included', async () => {
    const { tools } = await withApps.listTools()
    // The answer as it goes on the wire: a JSON-RPC result around the list.
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } })
    expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(8 * 1024)
  })

  it('changes no tool result: a client that renders apps gets what one that renders none gets', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['search_facts', { q: 'vitesse en agglomération' }],
      ['get_fact', { id: RULE }],
      ['fetch', { id: RULE }],
      ['search', { query: 'vitesse' }],
      ['get_catalogue', {}],
      ['get_fact', { id: 'fait-0000000000000000' }],
    ]
    for (const [name, args] of calls) {
      const a = await plain.callTool({ name, arguments: args })
      const b = await withApps.callTool({ name, arguments: args })
      expect(b, name).toEqual(a)
      expect(JSON.stringify(a), name).not.toContain('ui://')
    }
  })
})
