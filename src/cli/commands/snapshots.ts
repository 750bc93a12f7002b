/** `reference-records snapshots`: the recent snapshots, which one is current, which were pruned. */
import type { ClientBase } from 'pg'
import { listSnapshots, type SnapshotSummary } from '../../core/records/postgres/history.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import {
  DATABASE_EXIT_CODES_HELP,
  DATABASE_HELP,
  databaseUrl,
  parseDatabaseCommand,
  withDatabase,
} from './database.js'
import { UsageError } from './exit-codes.js'
import { formatSnapshots, snapshotState } from './publication-report.js'

export const SNAPSHOTS_USAGE = `Usage: reference-records snapshots [options]

Lists the most recent snapshots, newest first: id, when it was published, record count, checksum,
state (current; kept: can be rolled back to; pruned: its records were deleted by the retention)
and note. A rollback's note is kept with the publication: see "reference-records publications".

Options:
  --limit N           How many (default 20, at most 1000)
  --json              Print them as JSON (snake_case, as the API)
${DATABASE_HELP}

${DATABASE_EXIT_CODES_HELP}
`

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return 20
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new UsageError(`--limit must be a whole number from 1 to 1000, got "${value}"`)
  return Number(value)
}

/** A snapshot as JSON, in the API's snake_case. */
const asJson = (s: SnapshotSummary) => ({
  id: s.id,
  published_at: s.publishedAt.toISOString(),
  record_count: s.recordCount,
  checksum: s.checksum,
  state: snapshotState(s),
  current: s.current,
  pruned_at: s.prunedAt?.toISOString() ?? null,
  last_current_at: s.lastCurrentAt?.toISOString() ?? null,
  note: s.note,
})

/**
 * A listing of the publishing history (`snapshots`, `publications`): `--limit`, `--json` in the API's
 * snake_case, or a table for people.
 */
export async function runHistoryListing<T>(
  name: string,
  usage: string,
  read: (client: ClientBase, limit: number) => Promise<T[]>,
  show: { json: (item: T) => object; table: (items: readonly T[]) => string },
  args: string[],
  io: CliIo,
): Promise<number> {
  return runClientCommand(name, io, async () => {
    const { values, positionals } = parseDatabaseCommand(args, {
      limit: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (values.help) return write(io.stdout, usage)
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
    const limit = parseLimit(values.limit)
    const url = databaseUrl(values['database-url'], io)
    const items = await withDatabase(url, name, (client) => read(client, limit))
    await write(
      io.stdout,
      values.json ? `${JSON.stringify(items.map(show.json), null, 2)}\n` : `${show.table(items)}\n`,
    )
  })
}

export const runSnapshots = (args: string[], io: CliIo = processIo()): Promise<number> =>
  runHistoryListing(
    'snapshots',
    SNAPSHOTS_USAGE,
    listSnapshots,
    { json: asJson, table: formatSnapshots },
    args,
    io,
  )
