/** `reference-records catalogue [--json]`. */
import type { Catalogue } from '../../client/index.js'
import { COMMON_HELP, openClient, parseCommandLine, printRetries } from './common.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { clean } from './format.js'

export const CATALOGUE_USAGE = `Usage: reference-records catalogue [options]

Prints what the service offers: record counts per kind, links, limits and reuse conditions.

Options:
  --json              Print the catalogue as JSON
${COMMON_HELP}

${EXIT_CODES_HELP}
`

/** The catalogue for a reader; root-relative links are shown absolute, against the API root. */
export function formatCatalogue(c: Catalogue, baseUrl: string): string {
  const link = (href: string) => new URL(href, baseUrl).href.replaceAll('%7Bid%7D', '{id}')
  const width = Math.max(...Object.keys(c.records.by_kind).map((k) => k.length))
  const linkWidth = Math.max(...Object.keys(c.links).map((name) => name.length))
  const rpm = c.limits.requests_per_minute
  return [
    `${clean(c.name)} ${clean(c.version)}`,
    clean(c.description),
    '',
    `Records: ${c.records.total} (snapshot published ${c.updated_at})`,
    ...Object.entries(c.records.by_kind).map(
      ([kind, n]) => `  ${kind.padEnd(width)}  ${String(n).padStart(5)}`,
    ),
    '',
    'Links:',
    ...Object.entries(c.links).map(([name, href]) => `  ${name.padEnd(linkWidth)} ${link(String(href))}`),
    '',
    `Limits: ${rpm === 0 ? 'no request quota' : `${rpm} requests per minute`}, limit ≤ ${c.limits.max_limit}, ` +
      `offset ≤ ${c.limits.max_offset}, q ≤ ${c.limits.max_q_length} characters`,
    '',
    'Reuse:',
    `  ${clean(c.reuse.summary)}`,
    `  Attribution: ${clean(c.reuse.attribution)}`,
    `  Contact: ${clean(c.reuse.contact)}`,
  ].join('\n')
}

export async function runCatalogue(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('catalogue', io, async () => {
    const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' } })
    if (values.help) return write(io.stdout, CATALOGUE_USAGE)
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
    const client = await openClient(values, io, printRetries('catalogue', io))
    const catalogue = await client.catalogue()
    await write(
      io.stdout,
      values.json
        ? `${JSON.stringify(catalogue, null, 2)}\n`
        : `${formatCatalogue(catalogue, `${client.baseUrl}/`)}\n`,
    )
  })
}
