/**
 * `reference-records publish FILE`: validates a records file whole, prints what it changes against
 * the current snapshot, then stores it as a new snapshot, current at once, and notifies the replicas.
 */
import { FileRecordSource } from '../../core/records/file-source.js'
import { isEmptyDiff } from '../../core/records/postgres/diff.js'
import { SCHEMA_VERSION, appliedVersion, migrate } from '../../core/records/postgres/migrations.js'
import {
  DEFAULT_KEEP_SNAPSHOTS,
  PublishingError,
  hashesOf,
  planAgainstCurrent,
  prepareSnapshot,
  publishSnapshot,
} from '../../core/records/postgres/publisher.js'
import type { Fact } from '../../core/records/record.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import {
  DATABASE_EXIT_CODES_HELP,
  DATABASE_HELP,
  databaseUrl,
  parseDatabaseCommand,
  parseNote,
  withDatabase,
} from './database.js'
import { UsageError } from './exit-codes.js'
import { commandProgress } from './progress.js'
import { MAX_REMOVED_SHARE, removalRefusal } from './removal-guard.js'
import { describeCurrent, describePublication, formatDiff } from './publication-report.js'

export const PUBLISH_USAGE = `Usage: reference-records publish FILE [options]

Validates FILE with the record schema (a JSON array, NDJSON, or {"published_at", "records"}: the
formats of RECORDS_FILE) and prints what it changes against the current snapshot: records added,
changed and removed, with their first ids. Then, in one transaction, stores it as a new snapshot,
makes it current and notifies every replica. One bad record publishes nothing. A file that
would remove more than ${Math.round(MAX_REMOVED_SHARE * 100)} % of the current records is refused unless --allow-removals
is given (a file cut short is a valid file with fewer records). The database schema is created or
upgraded first when needed.

Options:
  --dry-run           Validate and print the changes; write nothing
  --allow-removals    Publish even when more than ${Math.round(MAX_REMOVED_SHARE * 100)} % of the current records would be removed
  --note TEXT         Kept with the snapshot, shown by "reference-records snapshots"
  --keep N            Snapshots whose records are kept, the new one included (default ${DEFAULT_KEEP_SNAPSHOTS});
                      the records of older ones are pruned (their history stays)
${DATABASE_HELP}

${DATABASE_EXIT_CODES_HELP}

Example:
  reference-records publish records.ndjson --dry-run
  reference-records publish records.ndjson --note "weekly update"
`

const OPTIONS = {
  'dry-run': { type: 'boolean' },
  'allow-removals': { type: 'boolean' },
  note: { type: 'string' },
  keep: { type: 'string' },
} as const

function parseKeep(value: string | undefined): number {
  if (value === undefined) return DEFAULT_KEEP_SNAPSHOTS
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1)
    throw new UsageError(`--keep must be a whole number of snapshots, at least 1, got "${value}"`)
  return Number(value)
}

/** The file's records, validated whole; a refusal says that nothing was published. */
async function readRecords(file: string): Promise<Fact[]> {
  try {
    return (await new FileRecordSource(file).load()).records
  } catch (err) {
    throw new Error(`${(err as Error).message}\nNothing was published.`, { cause: err })
  }
}

export async function runPublish(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('publish', io, async () => {
    const { values, positionals } = parseDatabaseCommand(args, OPTIONS)
    if (values.help) return write(io.stdout, PUBLISH_USAGE)
    if (positionals.length !== 1) throw new UsageError(`expected one records file, got ${positionals.length}`)
    const [file] = positionals as [string]
    const keep = parseKeep(values.keep)
    const note = parseNote(values.note)
    const url = databaseUrl(values['database-url'], io)
    // A bar on stderr's terminal during each slow step, cleared before each line of the report.
    const progress = commandProgress(io, 'publish')
    const say = (text: string) => (progress.clear(), write(io.stdout, text))
    progress.step(`reading and validating ${file}`)
    const records = await readRecords(file)
    if (records.length === 0)
      throw new Error(
        `${file} holds no records; an empty snapshot would empty every replica. Nothing was published.`,
      )
    await say(`Checked ${file}: ${records.length} records, all valid.\n`)
    progress.step(`preparing ${records.length} records`)
    const snapshot = prepareSnapshot(records)
    progress.step('connecting to the database')
    await withDatabase(url, 'publish', async (client) => {
      if (values['dry-run']) {
        const version = await appliedVersion(client)
        if (version < SCHEMA_VERSION)
          await say(
            `Database schema at version ${version}: publishing will upgrade it to ${SCHEMA_VERSION}.\n`,
          )
      } else {
        const migrated = await migrate(client)
        if (migrated.applied.length > 0)
          await say(`Database schema upgraded from version ${migrated.from} to ${migrated.to}.\n`)
      }
      progress.step('comparing with the current snapshot')
      const plan = await planAgainstCurrent(client, hashesOf(snapshot))
      await say(`${describeCurrent(plan.current)}\n${formatDiff(plan.diff)}\n`)
      const refusal = values['allow-removals']
        ? undefined
        : removalRefusal(plan.diff, 'publishing', 'is the file whole?')
      if (refusal !== undefined) throw new PublishingError(refusal)
      if (values['dry-run']) return say('Dry run: nothing written.\n')
      if (plan.current !== undefined && isEmptyDiff(plan.diff)) {
        return say(
          `Nothing to publish: snapshot ${plan.current.snapshotId} already has exactly these records.\n`,
        )
      }
      progress.step('storing', { total: snapshot.rows.length, unit: 'records' })
      const published = await publishSnapshot(client, snapshot, plan, {
        note,
        keep,
        onStored: (stored) => progress.update(stored),
      })
      await say(`${describePublication(published.publication, published.pruned)}\n`)
    })
  })
}
