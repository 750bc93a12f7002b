/**
 * `reference-records mcp`: the MCP tools over stdio, for desktop MCP clients. Reads a records file
 * in this process (default: the bundled sample, or RECORDS_FILE), PostgreSQL's current published
 * snapshot (--database-url / DATABASE_URL, followed like `serve` does), or a remote API through the
 * reference client (--base-url / REFERENCE_RECORDS_URL), in which case every tool call is an API
 * request drawn from the remote server's quota. stdout carries the protocol: logs go to stderr.
 * Settings come from the one configuration module, with the same rules as `serve`.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { RecordsClient } from '../client/index.js'
import { BASE_URL_SETTING, loadMcpConfig, processEnv, type McpConfig } from '../config.js'
import { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader, type RecordReader } from '../core/api/reader.js'
import { FileRecordSource } from '../core/records/file-source.js'
import { PostgresRecordSource } from '../core/records/postgres-source.js'
import { followSource, loadInto } from '../core/snapshots/follow.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { PACKAGE_VERSION } from '../core/version.js'
import type { Log } from '../core/log.js'
import type { Fact } from '../core/records/record.js'
import { buildMcpServer } from '../mcp/server.js'
import { resolveApiRoot } from './api-root.js'
import { UsageError, parseCommandArgs } from './args.js'
import { AnsweringStdioTransport } from './answering-stdio.js'
import { RemoteRecordReader } from './remote-reader.js'

const USAGE = `Usage: reference-records mcp [--records-file FILE | --database-url URL | --base-url URL]

Serves the MCP tools (search_facts, get_fact, get_catalogue, search, fetch), resources and prompts over stdio.
  --records-file FILE  records to read in this process (default: $RECORDS_FILE, else the bundled sample)
  --database-url URL   read the current published snapshot from PostgreSQL, and follow publications
                       (default: $DATABASE_URL)
  --base-url URL       read a running service instead: its API root, e.g. https://records.example.org/api/v1,
                       or its address (https://records.example.org), where the API root is looked up
                       (default: $REFERENCE_RECORDS_URL); calls then count in that service's quota
`

const say = (message: string) => process.stderr.write(`reference-records mcp: ${message}\n`)
/** Logs on stderr as one line per event: stdout belongs to the protocol. */
const stderrLog: Log = {
  info: () => {},
  warn: (fields, message) => say(`${message} ${JSON.stringify(fields)}`),
  error: (fields, message) => say(`${message} ${JSON.stringify(fields)}`),
}

/** Records in this process: a file (its first load must succeed) or PostgreSQL's current snapshot (tools answer "unavailable" until one is loaded). */
async function localReader(
  config: Exclude<McpConfig, { source: 'remote' }>,
): Promise<{ reader: RecordReader; origin: string }> {
  const source =
    config.source === 'file'
      ? new FileRecordSource(config.file)
      : new PostgresRecordSource(config.databaseUrl, {
          log: stderrLog,
          applicationName: 'reference-records mcp',
        })
  const records = new LiveRecords()
  if (config.source === 'file') await loadInto(source, records)
  followSource(source, records, { log: stderrLog })
  const reader = new LocalRecordReader(
    records,
    new Catalogues({ requestsPerMinute: 0, contact: 'see the catalogue of the publishing service' }),
  )
  return { reader, origin: source.origin }
}

/**
 * Record pages of a remote service: its pages live beside its API root (`…/api/v1` → `…/fiches/{id}`).
 * An API root elsewhere says nothing of where the pages are: answers then link to the original pages.
 */
function remoteRecordPage(apiRoot: string): (r: Pick<Fact, 'id' | 'url'>) => string {
  const site = /^(.*)\/api\/v1\/?$/.exec(apiRoot)?.[1]
  return site === undefined ? (r) => r.url : (r) => `${site}/fiches/${r.id}`
}

/** A reader of a running service; its address may be an origin, whose API root is looked up once here. */
async function remoteReader(
  baseUrl: string,
  from: string,
): Promise<{ reader: RecordReader; recordPage: (r: Pick<Fact, 'id' | 'url'>) => string }> {
  const root = await resolveApiRoot(baseUrl, from)
  return {
    reader: new RemoteRecordReader(new RecordsClient({ baseUrl: root })),
    recordPage: remoteRecordPage(root),
  }
}

export async function runMcp(args: string[]): Promise<number> {
  let values: { 'records-file'?: string; 'base-url'?: string; 'database-url'?: string; help?: boolean }
  try {
    values = parseCommandArgs(
      args,
      {
        'records-file': { type: 'string' },
        'base-url': { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      false,
    ).values
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`reference-records mcp: ${err.message}\n\n${USAGE}`)
    return 2
  }
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  let config
  try {
    config = loadMcpConfig(processEnv(), values)
  } catch (err) {
    process.stderr.write(`reference-records mcp: ${(err as Error).message}\n\n${USAGE}`)
    return 2
  }
  let reader: RecordReader
  let origin: string
  // Local records link to their original pages: no pages are served by a stdio process.
  let recordPage: (r: Pick<Fact, 'id' | 'url'>) => string = (r) => r.url
  try {
    if (config.source === 'remote') {
      const from = values['base-url'] ? '--base-url' : BASE_URL_SETTING
      ;({ reader, recordPage } = await remoteReader(config.baseUrl, from))
      origin = config.baseUrl
    } else {
      ;({ reader, origin } = await localReader(config))
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    say(err.message)
    return 2
  }
  // One server per connection: the catalogue its instructions describe is read when the client connects.
  serveStdio(() => buildMcpServer(reader, { version: PACKAGE_VERSION, recordPage }), {
    transport: new AnsweringStdioTransport(),
    onerror: (err) => say(err.message),
  })
  say(`serving over stdio from ${origin}`)
  return 0
}
