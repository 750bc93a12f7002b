/**
 * `reference-records mcp`: the MCP tools over stdio, for desktop MCP clients. Reads a records file
 * in this process (default: the bundled sample, or RECORDS_FILE), or a remote API through the
 * reference client (--base-url / REFERENCE_RECORDS_URL), in which case every tool call is an API
 * request drawn from the remote server's quota. stdout carries the protocol: logs go to stderr.
 */
import { parseArgs } from 'node:util'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { RecordsClient } from '../client/client.js'
import { BUNDLED_RECORDS_FILE } from '../config.js'
import { LocalRecordReader, RemoteRecordReader, type RecordReader } from '../mcp/reader.js'
import { createMcpServer } from '../mcp/server.js'
import { FileRecordSource } from '../records/file-source.js'
import { followSource, loadInto } from '../records/follow.js'
import { LiveRecords } from '../records/live-records.js'
import { PACKAGE_VERSION } from '../version.js'

const USAGE = `Usage: reference-records mcp [--records-file FILE | --base-url URL]

Serves the MCP tools (search_facts, get_fact, get_catalogue) and resources over stdio.
  --records-file FILE  records to read in this process (default: $RECORDS_FILE, else the bundled sample)
  --base-url URL       read a running service instead, e.g. https://records.example.org/api/v1
                       (default: $REFERENCE_RECORDS_URL); calls then count in that service's quota
`

const log = (message: string) => process.stderr.write(`reference-records mcp: ${message}\n`)

async function localReader(file: string): Promise<RecordReader> {
  const source = new FileRecordSource(file)
  const records = new LiveRecords()
  await loadInto(source, records)
  followSource(source, records, { info: () => {}, error: (o: object) => log(`records update refused: ${JSON.stringify(o)}`) })
  return new LocalRecordReader(records, { requestsPerMinute: 0, contact: 'see the catalogue of the publishing service' })
}

export async function runMcp(args: string[]): Promise<number> {
  let values: { 'records-file'?: string; 'base-url'?: string; help?: boolean }
  try {
    values = parseArgs({
      args,
      options: { 'records-file': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values
  } catch (err) {
    process.stderr.write(`reference-records mcp: ${(err as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const baseUrl = values['base-url'] ?? (values['records-file'] === undefined ? process.env.REFERENCE_RECORDS_URL : undefined)
  if (baseUrl !== undefined && values['records-file'] !== undefined) {
    process.stderr.write(`reference-records mcp: give --records-file or --base-url, not both\n\n${USAGE}`)
    return 2
  }
  const reader = baseUrl !== undefined
    ? new RemoteRecordReader(new RecordsClient({ baseUrl }))
    : await localReader(values['records-file'] ?? process.env.RECORDS_FILE ?? BUNDLED_RECORDS_FILE)
  serveStdio(() => createMcpServer(reader, PACKAGE_VERSION), { onerror: (err) => log(err.message) })
  log(`serving over stdio from ${baseUrl ?? 'a local records file'}`)
  return 0
}
