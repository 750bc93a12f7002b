/** The `reference-records` command: `serve` runs the service; the others read one, or serve MCP over stdio. */
import { PACKAGE_VERSION } from '../core/version.js'
import { suggest } from './args.js'
import { isClosedPipe } from './closed-pipe.js'

const USAGE = `Usage: reference-records <command> [options]

Commands:
  serve     Run the HTTP API (see --help of the command)
  search    Search the records of a running service: search <words> [--kind] [--region] [--limit] [--offset] [--json]
  get       Print one record with its sources and attribution: get <id> [--json]
  catalogue Print the service's catalogue: counts per kind, links, limits, reuse conditions [--json]
  dump      Write every record as NDJSON: dump [--kind] [--out FILE]
  sync      Keep a local NDJSON mirror up to date with the change feed: sync DIR [--download-above N] [--json]
  mcp       Serve the MCP tools over stdio, for desktop MCP clients: mcp [--records-file FILE | --database-url URL | --base-url URL]

Publishing (PostgreSQL, --database-url or $DATABASE_URL):
  publish   Validate a records file, show what it changes, publish it as the new snapshot: publish FILE [--dry-run] [--note TEXT]
  snapshots List recent snapshots and which one is current: snapshots [--limit N] [--json]
  rollback  Make an earlier snapshot current again: rollback ID [--dry-run] [--note TEXT]
  publications  List recent publications and rollbacks with their notes: publications [--limit N] [--json]
  db        Create or upgrade the database schema: db migrate

Options:
  -h, --help     Show this help ("reference-records help <command>" for a command's)
  -v, --version  Print the version

search, get, catalogue, dump and sync read the service given by --base-url, else $REFERENCE_RECORDS_URL,
else http://127.0.0.1:8080/api/v1 (its address, such as http://127.0.0.1:8080, also works). Their
exit codes: 0 ok, 1 other failure, 2 usage error, 3 not found, 4 rate limited.

Run "reference-records <command> --help" for a command's options.`

type Command = (args: string[]) => Promise<number>

// Loaded on demand: `serve` does not load the client and the progress bar, the publishing commands
// load neither them nor serve's modules (`publish` starts on every publication: its start is part of
// how soon the replicas serve it), and --version loads almost nothing.
const COMMANDS: Record<string, Command> = {
  serve: async (args) => (await import('./serve.js')).runServe(args),
  search: async (args) => (await import('./commands/search.js')).runSearch(args),
  get: async (args) => (await import('./commands/get.js')).runGet(args),
  catalogue: async (args) => (await import('./commands/catalogue.js')).runCatalogue(args),
  dump: async (args) => (await import('./commands/dump.js')).runDump(args),
  sync: async (args) => (await import('./commands/sync.js')).runSync(args),
  mcp: async (args) => (await import('./mcp.js')).runMcp(args),
  publish: async (args) => (await import('./commands/publish.js')).runPublish(args),
  snapshots: async (args) => (await import('./commands/snapshots.js')).runSnapshots(args),
  rollback: async (args) => (await import('./commands/rollback.js')).runRollback(args),
  publications: async (args) => (await import('./commands/publications.js')).runPublications(args),
  db: async (args) => (await import('./commands/db.js')).runDb(args),
}

/** What a mistyped command or option gets: one line, a suggestion when one is close, where to look. */
function unknown(what: string, word: string, candidates: string[]): number {
  const near = suggest(word, candidates)
  const hint = near === undefined ? '' : `; did you mean "${near}"?`
  process.stderr.write(
    `reference-records: unknown ${what} "${word}"${hint}\nRun "reference-records --help" for the commands.\n`,
  )
  return 2
}

/** Exit codes: 0 ok, 1 failure, 2 usage error (each command documents its own). */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    // Usage asked for by mistake is an error: it goes to stderr, so a pipe does not take it for output.
    process.stderr.write(`reference-records: a command is needed.\n\n${USAGE}\n`)
    return 2
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    const topic = rest[0]
    if (topic !== undefined && COMMANDS[topic] !== undefined) return COMMANDS[topic]!(['--help'])
    if (topic !== undefined) return unknown('command', topic, Object.keys(COMMANDS))
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`reference-records ${PACKAGE_VERSION}\n`)
    return 0
  }
  const run = COMMANDS[command]
  if (run !== undefined) return run(rest)
  if (command.startsWith('-')) return unknown('option', command, ['--help', '--version'])
  return unknown('command', command, Object.keys(COMMANDS))
}

// A reader that went away (`reference-records dump | head -1`) is a normal end: the write that
// failed says so to its command, and the stream's own error event must not crash the process.
process.stdout.on('error', (err) => {
  if (!isClosedPipe(err)) throw err
})

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (err: unknown) => {
    if (isClosedPipe(err)) return
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
