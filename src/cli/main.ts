#!/usr/bin/env node
/** The `reference-records` command: `serve` runs the service; more commands join as the project grows. */
import { runServe } from './serve.js'

const USAGE = `Usage: reference-records <command> [options]

Commands:
  serve     Run the HTTP API (see --help of the command)
  search    Search the records of a running service: search <words> [--kind] [--region] [--limit] [--offset] [--json]
  get       Print one record with its sources and attribution: get <id> [--json]
  catalogue Print the service's catalogue: counts per kind, links, limits, reuse conditions [--json]
  dump      Write every record as NDJSON: dump [--kind] [--out FILE]
  mcp       Serve the MCP tools over stdio, for desktop MCP clients: mcp [--records-file FILE | --base-url URL]

search, get, catalogue and dump read the API root given by --base-url, else $REFERENCE_RECORDS_URL,
else http://127.0.0.1:8080/api/v1. Their exit codes: 0 ok, 1 other failure, 2 usage error,
3 not found, 4 rate limited.

Run "reference-records <command> --help" for a command's options.`

/** Exit codes: 0 ok, 1 failure, 2 usage error. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'serve':
      return runServe(rest)
    // Loaded on demand, so `serve` does not load the client and the progress bar.
    case 'search':
      return (await import('./commands/search.js')).runSearch(rest)
    case 'get':
      return (await import('./commands/get.js')).runGet(rest)
    case 'catalogue':
      return (await import('./commands/catalogue.js')).runCatalogue(rest)
    case 'dump':
      return (await import('./commands/dump.js')).runDump(rest)
    case 'mcp':
      return (await import('./mcp.js')).runMcp(rest)
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${USAGE}\n`)
      return command === undefined ? 2 : 0
    default:
      process.stderr.write(`reference-records: unknown command "${command}"\n\n${USAGE}\n`)
      return 2
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
