/** `reference-records get <id> [--json]`. */
import { NotFoundError } from '../../client/index.js'
import { RecordIdSchema } from '../../core/records/record.js'
import { COMMON_HELP, openClient, parseCommandLine, printRetries } from './common.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { formatDetail } from './format.js'

export const GET_USAGE = `Usage: reference-records get <id> [options]

Prints one record with its link, sources, verification date and the attribution to use.

Options:
  --json              Print the record as JSON
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records get fait-643b555e754f953d
`

/** Checks the id with the record schema, so a typo is named in the command's words before any request. */
export function recordIdFromArgs(positionals: string[]): string {
  if (positionals.length !== 1) {
    throw new UsageError(
      `expected one record id, got ${positionals.length === 0 ? 'none' : positionals.length}`,
    )
  }
  const id = positionals[0]!
  const checked = RecordIdSchema.safeParse(id)
  if (!checked.success) {
    throw new UsageError(
      `"${id}" is not a record id: an id ${checked.error.issues[0]!.message}, e.g. fait-643b555e754f953d`,
    )
  }
  return id
}

export async function runGet(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('get', io, async () => {
    const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' } })
    if (values.help) return write(io.stdout, GET_USAGE)
    const id = recordIdFromArgs(positionals)
    const client = await openClient(values, io, printRetries('get', io))
    const record = await client.get(id).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err
      // The service's hint names its own path; the command user needs the command.
      throw new NotFoundError(
        err.status,
        err.code,
        `no record with id "${id}"; find records with: reference-records search <words>`,
        undefined,
        err.url,
      )
    })
    await write(io.stdout, values.json ? `${JSON.stringify(record, null, 2)}\n` : `${formatDetail(record)}\n`)
  })
}
