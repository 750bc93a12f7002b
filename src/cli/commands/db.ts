/** `reference-records db migrate`: creates or upgrades the publishing pipeline's tables. */
import { migrate } from '../../core/records/postgres/migrations.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import {
  DATABASE_EXIT_CODES_HELP,
  DATABASE_HELP,
  databaseUrl,
  parseDatabaseCommand,
  withDatabase,
} from './database.js'
import { UsageError } from './exit-codes.js'

export const DB_USAGE = `Usage: reference-records db migrate [options]

Creates or upgrades the tables of the publishing pipeline (snapshots, their records, publications)
in the database's current schema, applying the missing versioned migrations in one transaction
under an advisory lock. Safe to run any number of times, from several places at once.
("reference-records publish" does the same before publishing.)

Options:
${DATABASE_HELP}

${DATABASE_EXIT_CODES_HELP}
`

export async function runDb(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('db', io, async () => {
    const { values, positionals } = parseDatabaseCommand(args, {})
    if (values.help) return write(io.stdout, DB_USAGE)
    if (positionals.length !== 1 || positionals[0] !== 'migrate') {
      throw new UsageError(
        positionals.length === 0
          ? 'expected a subcommand: migrate'
          : `unknown subcommand "${positionals[0]}"; expected migrate`,
      )
    }
    const url = databaseUrl(values['database-url'], io)
    const report = await withDatabase(url, 'db migrate', (client) => migrate(client))
    if (report.applied.length === 0)
      return write(io.stdout, `Database schema already at version ${report.to}; nothing to do.\n`)
    const applied = report.applied.map((m) => `  ${m.version}  ${m.name}`).join('\n')
    await write(
      io.stdout,
      `Database schema upgraded from version ${report.from} to ${report.to}:\n${applied}\n`,
    )
  })
}
