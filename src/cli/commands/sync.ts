/** `reference-records sync DIR`: keeps a local NDJSON mirror of the records up to date (client `sync`). */
import { MIRROR_FILE, STATE_FILE, sync } from '../../client/index.js'
import {
  COMMON_HELP,
  openClient,
  parseCommandLine,
  printRetries,
  processIo,
  runClientCommand,
  write,
  type CliIo,
} from './common.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'

export const SYNC_USAGE = `Usage: reference-records sync DIR [options]

Keeps DIR/${MIRROR_FILE} (every record, one per line, in id order) up to date with the service.
The first run downloads every record; later runs apply the change feed (additions, edits,
removals) from the publication DIR/${STATE_FILE} names, check the result against the
publication's checksum, and replace the mirror only then, by renaming a file written beside it.
When the service no longer keeps the changes since that publication, everything is downloaded again.

Options:
  --json              Print the report as JSON
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records sync ./records-mirror
  sha256sum ./records-mirror/${MIRROR_FILE}   # the publication's checksum, as ${STATE_FILE} records it
`

export async function runSync(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('sync', io, async () => {
    const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' } })
    if (values.help) return write(io.stdout, SYNC_USAGE)
    if (positionals.length !== 1)
      throw new UsageError(
        `expected one directory, got ${positionals.length === 0 ? 'none' : positionals.length}`,
      )
    const dir = positionals[0]!
    const client = await openClient(values['base-url'], io, printRetries('sync', io))
    const report = await sync(client, dir, {
      onDownload: (reason) =>
        io.stderr.write(`reference-records sync: downloading every record again: ${reason}\n`),
    })
    if (values.json) return write(io.stdout, `${JSON.stringify(report)}\n`)
    const what =
      report.mode === 'current'
        ? 'already up to date'
        : report.mode === 'download'
          ? `downloaded ${report.records} records`
          : `${report.added} added, ${report.changed} changed, ${report.removed} removed`
    await write(io.stdout, `${dir}: publication ${report.publication}, ${report.records} records: ${what}\n`)
  })
}
