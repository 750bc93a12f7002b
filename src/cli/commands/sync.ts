/** `reference-records sync DIR`: keeps a local NDJSON mirror of the records up to date (client `sync`). */
import { MIRROR_FILE, STATE_FILE, sync, type SyncProgress } from '../../client/index.js'
import { COMMON_HELP, openClient, parseCommandLine } from './common.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { onInterrupt } from './interrupt.js'
import { commandProgress, type Progress } from './progress.js'
import { formatWait } from './retry-notice.js'

export const SYNC_USAGE = `Usage: reference-records sync DIR [options]

Keeps DIR/${MIRROR_FILE} (every record, one per line, in id order) up to date with the service.
The first run downloads every record; later runs apply the change feed (additions, edits,
removals) from the publication DIR/${STATE_FILE} names, check the result against the
publication's checksum, and replace the mirror only then, by renaming a file written beside it.
When the service no longer keeps the changes since that publication, everything is downloaded again,
and so it is when applying the changes would take more requests than --download-above (a request
per page of the feed and per record added or changed; default 1 % of the records, at least 10, at
most 100): one download is then cheaper in quota and time. A progress bar is drawn on stderr when it
is a terminal; the command ends with one summary line on stdout.

Options:
  --json              Print the report as JSON (the summary line)
  --download-above N  Download the snapshot instead when applying the feed takes more than N requests
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records sync ./records-mirror
  sha256sum ./records-mirror/${MIRROR_FILE}   # the publication's checksum, as ${STATE_FILE} records it
`

export async function runSync(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('sync', io, async () => {
    const { values, positionals } = parseCommandLine(args, {
      json: { type: 'boolean' },
      'download-above': { type: 'string' },
    })
    if (values.help) return write(io.stdout, SYNC_USAGE)
    if (positionals.length !== 1)
      throw new UsageError(
        `expected one directory, got ${positionals.length === 0 ? 'none' : positionals.length}`,
      )
    const dir = positionals[0]!
    const downloadAbove = parseDownloadAbove(values['download-above'])
    const bar = commandProgress(io, 'sync')
    const client = await openClient(values, io, bar.onRetry)
    // Ctrl-C or SIGTERM: the mirror stays the publication it was (its temporary files removed).
    const interrupt = onInterrupt(`; ${dir} was left as it was`)
    const begun = Date.now()
    try {
      const report = await sync(client, dir, {
        signal: interrupt.signal,
        ...(downloadAbove === undefined ? {} : { downloadAbove }),
        onProgress: showProgress(bar),
        onDownload: (reason) => {
          bar.clear()
          io.stderr.write(`reference-records sync: downloading every record again: ${reason}\n`)
        },
      })
      bar.clear()
      if (values.json) return await write(io.stdout, `${JSON.stringify(report)}\n`)
      const what =
        report.mode === 'current'
          ? 'already up to date'
          : report.mode === 'download'
            ? `downloaded ${report.records} records`
            : `${report.added} added, ${report.changed} changed, ${report.removed} removed`
      await write(
        io.stdout,
        `${dir}: publication ${report.publication}, ${report.records} records: ${what} in ${formatWait(Date.now() - begun)}\n`,
      )
    } finally {
      bar.clear()
      interrupt.dispose()
    }
  })
}

function parseDownloadAbove(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d{1,9}$/.test(value))
    throw new UsageError(`--download-above must be a whole number of requests, got "${value}"`)
  return Number(value)
}

/** Each phase of the sync as a step of the bar: the download, the feed's pages, the records read again. */
function showProgress(bar: Progress): (progress: SyncProgress) => void {
  let phase: SyncProgress['phase'] | undefined
  return (progress) => {
    const changed = progress.phase !== phase
    phase = progress.phase
    if (progress.phase === 'changes') {
      if (changed) bar.step('reading the change feed', { unit: 'changes' })
      return bar.update(progress.changes)
    }
    const label = progress.phase === 'download' ? 'downloading' : 'reading the changed records'
    if (changed) bar.step(label, { total: progress.total, unit: 'records' })
    bar.update(progress.done, progress.total)
  }
}
