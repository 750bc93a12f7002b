/**
 * What the publishing commands (publish, snapshots, rollback, db) share: the --database-url option,
 * one connection for the command's life, and their help text.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type pg from 'pg'
import { loadDatabaseUrl } from '../../config.js'
import { connectTo } from '../../core/records/postgres/connection.js'
import type { CliIo } from './command-io.js'
import { UsageError } from './exit-codes.js'

const DATABASE_OPTIONS = {
  'database-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options']

export const DATABASE_HELP = `  --database-url URL  PostgreSQL holding the snapshots, e.g. postgres://publisher@db.example/records
                      (default: $DATABASE_URL). Tables go in the connection's current schema.
  -h, --help          Show this help`

export const DATABASE_EXIT_CODES_HELP = `Exit codes:
  0  done (or nothing to do)
  1  refused or failed: invalid records, database unreachable, a concurrent publication, unknown snapshot…
  2  usage error (bad option or value, no database given)`

type Options = NonNullable<ParseArgsConfig['options']>
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{
    args: string[]
    options: typeof DATABASE_OPTIONS & O
    strict: true
    allowPositionals: true
  }>
>

/** Strict parsing with the database options; complaints become usage errors. */
export function parseDatabaseCommand<O extends Options>(args: string[], options: O): Parsed<O> {
  try {
    return parseArgs({
      args,
      options: { ...DATABASE_OPTIONS, ...options },
      strict: true,
      allowPositionals: true,
    })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

/** The database URL of --database-url, else DATABASE_URL; a missing or bad one is a usage error. */
export function databaseUrl(flag: string | undefined, io: CliIo): string {
  try {
    return loadDatabaseUrl(io.env, flag)
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^config: /, ''))
  }
}

/** Runs `body` with one connection, always closed. */
export async function withDatabase<T>(
  url: string,
  command: string,
  body: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connectTo(url, `reference-records ${command}`)
  try {
    return await body(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

const MAX_NOTE_LENGTH = 500

/** A note: trimmed, at most 500 characters, no control characters; empty means none. */
export function parseNote(value: string | undefined): string | undefined {
  const note = value?.trim()
  if (note === undefined || note === '') return undefined
  if ([...note].length > MAX_NOTE_LENGTH)
    throw new UsageError(`--note must be at most ${MAX_NOTE_LENGTH} characters`)
  if (/\p{Cc}/u.test(note))
    throw new UsageError('--note must not contain control characters (line breaks included)')
  return note
}
