/** `reference-records get <id> [--json]`. */
import {
  COMMON_HELP,
  clientFor,
  parseCommandLine,
  processIo,
  runClientCommand,
  write,
  type CliIo,
} from './common.js'
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

export async function runGet(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('get', io, async () => {
    const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' } })
    if (values.help) return write(io.stdout, GET_USAGE)
    if (positionals.length !== 1) throw new UsageError(`expected one record id, got ${positionals.length}`)
    const record = await clientFor(values['base-url'], io).get(positionals[0]!)
    await write(io.stdout, values.json ? `${JSON.stringify(record, null, 2)}\n` : `${formatDetail(record)}\n`)
  })
}
