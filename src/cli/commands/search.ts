/** `reference-records search <words> [--kind] [--region] [--match] [--limit] [--offset] [--json]`. */
import { SearchParamsSchema } from '../../core/api/schemas.js'
import { KINDS } from '../../core/records/record.js'
import type { SearchEnvelope, SearchQuery } from '../../client/index.js'
import { COMMON_HELP, openClient, parseCommandLine, printRetries } from './common.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { clean, formatSearchHeading, formatSummary } from './format.js'
import { interpretationLines, lackingWords, noMatchLines, readInterpretation } from './interpretation.js'

export const SEARCH_USAGE = `Usage: reference-records search [<words>...] [options]

Searches the records: every significant word must appear, as a whole word, another of its forms
(stationner / stationnement) or an alias (auto / voiture); accents and case are ignored. Question
words and words too common to search for are ignored, and a word found nowhere is corrected to the
closest one; the output says how the words were read, and when nothing matches it suggests searches
that would. With --match best, when no record holds every word, the records holding the most of them
come first (rarer words and words in titles weigh more), each saying which words it lacks: best for
a whole question or sentence.

Options:
  --kind KIND         Only records of this kind: ${KINDS.join(', ')}
  --region REGION     Only records of this region: france
  --match MODE        all (default): every word must appear; best: the records holding the most words
  --limit N           Records per page, 1 to 50 (default 10)
  --offset N          Records to skip, 0 to 10000 (default 0)
  --json              Print the result envelope as JSON
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records search priorité à droite --kind lesson
  reference-records search --match best "à quel âge peut-on conduire une trottinette électrique ?"
`

const OPTIONS = {
  kind: { type: 'string' },
  region: { type: 'string' },
  match: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  json: { type: 'boolean' },
} as const

/**
 * Checks the words and filters with the API's own parameter schema, so the command refuses exactly
 * what the service would, before spending a request.
 */
export function searchQueryFromArgs(
  words: string[],
  values: { kind?: string; region?: string; match?: string; limit?: string; offset?: string },
): SearchQuery {
  const q = words.join(' ').trim()
  const raw = {
    q: q === '' ? undefined : q,
    kind: values.kind,
    region: values.region,
    match: values.match,
    limit: values.limit,
    offset: values.offset,
  }
  const parsed = SearchParamsSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0])
      // The words are not echoed (they may be long); an option's bad value is, so the user sees what was read.
      return name === 'q'
        ? `words ${i.message}`
        : `--${name} ${JSON.stringify(raw[name as keyof typeof raw])}: ${i.message}`
    })
    throw new UsageError(problems.join('; '))
  }
  const { po_live: _live, match, ...query } = parsed.data
  // The service's default is sent as no parameter at all: one search, one address.
  return values.match === undefined ? query : { ...query, match }
}

/** The human output of one page: the heading, how the words were read, the records, and help when nothing matched. */
export function formatSearchPage(page: SearchEnvelope, query: SearchQuery): string {
  const heading = formatSearchHeading(query.q, page.total, page.offset, page.results.length)
  const interpretation = readInterpretation(page)
  const notes = interpretation === undefined ? [] : interpretationLines(interpretation)
  const top = [heading, ...notes.map((line) => `  ${line}`)].join('\n')
  if (page.total === 0 && query.q !== undefined) {
    return (
      [top, noMatchLines(interpretation, { kind: query.kind, region: query.region }).join('\n')].join(
        '\n\n',
      ) + '\n'
    )
  }
  const lacking = lackingWords(interpretation)
  const entry = (record: SearchEnvelope['results'][number]) => {
    const lacks = lacking.get(record.id)
    return formatSummary(record) + (lacks === undefined ? '' : `\n  Lacks: ${lacks.map(clean).join(', ')}`)
  }
  return [top, ...page.results.map(entry)].join('\n\n') + '\n'
}

export async function runSearch(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('search', io, async () => {
    const { values, positionals } = parseCommandLine(args, OPTIONS)
    if (values.help) return write(io.stdout, SEARCH_USAGE)
    const query = searchQueryFromArgs(positionals, values)
    const client = await openClient(values, io, printRetries('search', io))
    const page = await client.search(query)
    if (values.json) return write(io.stdout, `${JSON.stringify(page, null, 2)}\n`)
    await write(io.stdout, formatSearchPage(page, query))
  })
}
