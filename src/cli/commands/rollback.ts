/**
 * `reference-records rollback ID`: makes an earlier snapshot current again. It is a new publication
 * event (the history keeps both), printed first as the changes it makes, then notified to replicas.
 */
import { diffSnapshots } from '../../core/records/postgres/diff.js'
import { snapshotHashes } from '../../core/records/postgres/history.js'
import { appliedVersion } from '../../core/records/postgres/migrations.js'
import { PublishingError, checkRollbackTarget, rollbackTo } from '../../core/records/postgres/publisher.js'
import { currentPublication } from '../../core/records/postgres/snapshot-reader.js'
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

export const ROLLBACK_USAGE = `Usage: reference-records rollback ID [options]

Makes snapshot ID (see "reference-records snapshots") current again, and notifies every replica.
It prints the changes first; like "publish", it refuses to remove more than ${Math.round(MAX_REMOVED_SHARE * 100)} % of the current
records unless --allow-removals is given. The rollback is a new publication: the history keeps every snapshot
and every publication, and a later "publish" or "rollback" moves on from it.

Options:
  --dry-run           Print the changes; write nothing
  --allow-removals    Roll back even when more than ${Math.round(MAX_REMOVED_SHARE * 100)} % of the current records would be removed
                      (the same guard as "publish")
  --note TEXT         Why, kept with the publication
${DATABASE_HELP}

${DATABASE_EXIT_CODES_HELP}

Example:
  reference-records rollback 41 --note "42 had a wrong speed limit"
`

function parseId(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,14}$/.test(value))
    throw new UsageError(
      `expected a snapshot id (a whole number), got ${value === undefined ? 'none' : `"${value}"`}`,
    )
  return Number(value)
}

export async function runRollback(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('rollback', io, async () => {
    const { values, positionals } = parseDatabaseCommand(args, {
      'dry-run': { type: 'boolean' },
      'allow-removals': { type: 'boolean' },
      note: { type: 'string' },
    })
    if (values.help) return write(io.stdout, ROLLBACK_USAGE)
    if (positionals.length > 1) throw new UsageError(`expected one snapshot id, got ${positionals.length}`)
    const id = parseId(positionals[0])
    const note = parseNote(values.note)
    const url = databaseUrl(values['database-url'], io)
    // A bar on stderr's terminal during each slow step, cleared before each line of the report.
    const progress = commandProgress(io, 'rollback')
    const say = (text: string) => (progress.clear(), write(io.stdout, text))
    progress.step('connecting to the database')
    await withDatabase(url, 'rollback', async (client) => {
      if ((await appliedVersion(client)) === 0)
        throw new PublishingError('nothing was ever published to this database')
      progress.step(`comparing snapshot ${id} with the current one`)
      const current = await currentPublication(client)
      await checkRollbackTarget(client, id, current)
      const before =
        current === undefined ? new Map<string, string>() : await snapshotHashes(client, current.snapshotId)
      const plan = { current, diff: diffSnapshots(before, await snapshotHashes(client, id)) }
      await say(`${describeCurrent(current)}\nRolling back to snapshot ${id}.\n${formatDiff(plan.diff)}\n`)
      const refusal = values['allow-removals']
        ? undefined
        : removalRefusal(plan.diff, `rolling back to snapshot ${id}`, `is snapshot ${id} the one meant?`)
      if (refusal !== undefined) throw new PublishingError(refusal)
      if (values['dry-run']) return say('Dry run: nothing written.\n')
      progress.step(`making snapshot ${id} current`)
      await say(`${describePublication(await rollbackTo(client, id, plan, { note }))}\n`)
    })
  })
}
