/** `reference-records search <words> [--kind] [--region] [--limit] [--offset] [--json]`. */
import { SearchParamsSchema } from '../../http/schemas.js'
import { KINDS } from '../../records/record.js'
import type { SearchQuery } from '../../client/index.js'
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
import { formatSearchHeading, formatSummary } from './format.js'

export const SEARCH_USAGE = `Usage: reference-records search [<words>...] [options]

Searches the records: every significant word must appear (accents and case are ignored).

Options:
  --kind KIND         Only records of this kind: ${KINDS.join(', ')}
  --region REGION     Only records of this region: france
  --limit N           Records per page, 1 to 50 (default 10)
  --offset N          Records to skip, 0 to 10000 (default 0)
  --json              Print the result envelope as JSON
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records search priorité à droite --kind lesson
`

const OPTIONS = {
  kind: { type: 'string' },
  region: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  json: { type: 'boolean' },
} as const

/**
 * Checks the words and filters with the API's own parameter schema, so the command refuses exactly
 * what the service would, before spending a request.
 */
export function toSearchQuery(
  words: string[],
  values: { kind?: string; region?: string; limit?: string; offset?: string },
): SearchQuery {
  const q = words.join(' ').trim()
  const raw = {
    q: q === '' ? undefined : q,
    kind: values.kind,
    region: values.region,
    limit: values.limit,
    offset: values.offset,
  }
  const parsed = SearchParamsSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path[0] === 'q' ? 'words' : `--${String(i.path[0])}`} ${i.message}`,
    )
    throw new UsageError(problems.join('; '))
  }
  const { po_live: _live, ...query } = parsed.data
  return query
}

export async function runSearch(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('search', io, async () => {
    const { values, positionals } = parseCommandLine(args, OPTIONS)
    if (values.help) return write(io.stdout, SEARCH_USAGE)
    const query = toSearchQuery(positionals, values)
    const page = await clientFor(values['base-url'], io).search(query)
    if (values.json) return write(io.stdout, `${JSON.stringify(page, null, 2)}\n`)
    const heading = formatSearchHeading(query.q, page.total, page.offset, page.results.length)
    await write(io.stdout, [heading, ...page.results.map(formatSummary)].join('\n\n') + '\n')
  })
}
