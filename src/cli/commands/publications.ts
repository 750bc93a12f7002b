/**
 * `reference-records publications`: the publishing history, newest first. Each publish and each
 * rollback is a publication with its own note ("rollback 41 --note …"), which `snapshots` cannot
 * show: a snapshot made current again keeps the note it was published with.
 */
import { listPublications, type PublicationSummary } from '../../core/records/postgres/history.js'
import { processIo, type CliIo } from './command-io.js'
import { DATABASE_EXIT_CODES_HELP, DATABASE_HELP } from './database.js'
import { formatPublications } from './publication-report.js'
import { runHistoryListing } from './snapshots.js'

export const PUBLICATIONS_USAGE = `Usage: reference-records publications [options]

Lists the most recent publications, newest first: id, when, action (publish, or rollback to an
earlier snapshot), the snapshot it made current, whether it is the current one, and its note.

Options:
  --limit N           How many (default 20, at most 1000)
  --json              Print them as JSON (snake_case, as the API)
${DATABASE_HELP}

${DATABASE_EXIT_CODES_HELP}
`

/** A publication as JSON, in the API's snake_case. */
const asJson = (p: PublicationSummary) => ({
  id: p.id,
  action: p.action,
  snapshot_id: p.snapshotId,
  published_at: p.publishedAt.toISOString(),
  current: p.current,
  note: p.note,
})

export const runPublications = (args: string[], io: CliIo = processIo()): Promise<number> =>
  runHistoryListing(
    'publications',
    PUBLICATIONS_USAGE,
    listPublications,
    { json: asJson, table: formatPublications },
    args,
    io,
  )
