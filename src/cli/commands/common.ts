/** What the client commands share: their options, argument parsing and the client. */
import type { ParseArgsConfig } from 'node:util'
import {
  DEFAULT_BASE_URL,
  RecordsClient,
  RequestPacer,
  type Catalogue,
  type RetryEvent,
} from '../../client/index.js'
import { BASE_URL_SETTING, clientBaseUrl } from '../../config.js'
import { findApiRoot } from '../api-root.js'
import { parseCommandArgs, type ParsedArgs } from '../args.js'
import { LIMITS_HELP, LIMIT_OPTIONS, clientLimitsFrom, type LimitValues } from './client-limits.js'
import type { CliIo } from './command-io.js'
import { CLI_MAX_RETRIES, formatRetry } from './retry-notice.js'

/** Environment variable naming the API root, when `--base-url` is not given. */
const BASE_URL_ENV = BASE_URL_SETTING

/** Options every client command takes. */
export const COMMON_OPTIONS = {
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...LIMIT_OPTIONS,
} as const satisfies ParseArgsConfig['options']

/** The values of the common options, as parsed. */
export type CommonValues = LimitValues & { 'base-url'?: string | undefined }

export const COMMON_HELP = `  --base-url URL      The service: its API root (https://records.example.org/api/v1) or its
                      address (https://records.example.org), where the API root is looked up.
                      Default: $${BASE_URL_ENV}, else ${DEFAULT_BASE_URL}
  -h, --help          Show this help

Limits (an answer past one is an error naming it):
${LIMITS_HELP}`

type Options = NonNullable<ParseArgsConfig['options']>

/** Strict parsing with the common options; complaints become usage errors in our words. Commands check positionals. */
export function parseCommandLine<O extends Options>(
  args: string[],
  options: O,
): ParsedArgs<typeof COMMON_OPTIONS & O, true> {
  return parseCommandArgs(args, { ...COMMON_OPTIONS, ...options } as typeof COMMON_OPTIONS & O, true)
}

/** A function the client calls before each wait for a retry. */
export type RetryListener = (event: RetryEvent) => void

/** Prints each retry on stderr, prefixed with the command's name. */
export const printRetries =
  (name: string, io: CliIo): RetryListener =>
  (event) => {
    io.stderr.write(`reference-records ${name}: ${formatRetry(event)}\n`)
  }

/**
 * A client of `--base-url`, else `$REFERENCE_RECORDS_URL`, else the default; an address that is not
 * an API root is looked up first. Every retry is reported to `onRetry`.
 */
export async function openClient(
  values: CommonValues,
  io: CliIo,
  onRetry: RetryListener,
): Promise<RecordsClient> {
  return (await openClientWithCatalogue(values, io, onRetry)).client
}

/** `openClient`, with the catalogue read while finding the API root, if one was read. */
export async function openClientWithCatalogue(
  values: CommonValues,
  io: CliIo,
  onRetry: RetryListener,
): Promise<{ client: RecordsClient; catalogue?: Catalogue }> {
  const chosen = clientBaseUrl(io.env, values['base-url'])
  const limits = clientLimitsFrom(values)
  // One pace for the lookup of the API root and the command's own requests: the service counts them together.
  const pacer = new RequestPacer({ requestsPerMinute: limits.requestsPerMinute ?? 'auto' })
  const options = { ...limits, pacer, mode: 'script' as const, maxRetries: CLI_MAX_RETRIES, onRetry }
  const { root, catalogue } =
    chosen === undefined
      ? { root: DEFAULT_BASE_URL, catalogue: undefined }
      : await findApiRoot(chosen.value, chosen.from, options)
  const client = new RecordsClient({ ...options, baseUrl: root })
  if (catalogue !== undefined) pacer.adopt(catalogue.limits?.requests_per_minute)
  return catalogue === undefined ? { client } : { client, catalogue }
}
