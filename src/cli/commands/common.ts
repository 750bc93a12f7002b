/** What the client commands share: their streams, argument parsing, the client, and error → exit code. */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { DEFAULT_BASE_URL, RecordsClient } from '../../client/index.js'
import { EXIT, UsageError, describeError, exitCodeOf, type ExitCode } from './exit-codes.js'

/** The process's streams and environment; tests pass their own. */
export type CliIo = {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  /** Whether stderr is a terminal (the dump's progress bar is drawn only then). */
  stderrIsTTY: boolean
  env: NodeJS.ProcessEnv
}

export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
})

/** Environment variable naming the API root, when `--base-url` is not given. */
export const BASE_URL_ENV = 'REFERENCE_RECORDS_URL'

/** Options every client command takes. */
export const COMMON_OPTIONS = {
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options']

export const COMMON_HELP = `  --base-url URL      API root (versioned), e.g. https://records.example.org/api/v1.
                      Default: $${BASE_URL_ENV}, else ${DEFAULT_BASE_URL}
  -h, --help          Show this help`

type Options = NonNullable<ParseArgsConfig['options']>

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{
    args: string[]
    options: typeof COMMON_OPTIONS & O
    strict: true
    allowPositionals: true
  }>
>

/** `parseArgs` in strict mode, with the common options; its complaints become usage errors. Commands check positionals. */
export function parseCommandLine<O extends Options>(args: string[], options: O): Parsed<O> {
  try {
    return parseArgs({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      strict: true,
      allowPositionals: true,
    })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

/** A client of `--base-url`, else `$REFERENCE_RECORDS_URL`, else the default. */
export function clientFor(baseUrlFlag: string | undefined, io: CliIo): RecordsClient {
  const fromEnv = io.env[BASE_URL_ENV] === '' ? undefined : io.env[BASE_URL_ENV]
  const baseUrl = baseUrlFlag ?? fromEnv ?? DEFAULT_BASE_URL
  try {
    return new RecordsClient({ baseUrl, mode: 'script' })
  } catch (err) {
    const source =
      baseUrlFlag !== undefined ? '--base-url' : fromEnv !== undefined ? BASE_URL_ENV : 'base URL'
    throw new UsageError(`${source}: "${baseUrl}" is not a usable API root (${(err as Error).message})`)
  }
}

/** Runs a command body; prints a failure as one message on stderr and returns its exit code. */
export async function runClientCommand(
  name: string,
  io: CliIo,
  body: () => Promise<void>,
): Promise<ExitCode> {
  try {
    await body()
    return EXIT.ok
  } catch (err) {
    const hint = err instanceof UsageError ? `\nRun "reference-records ${name} --help" for usage.` : ''
    io.stderr.write(`reference-records ${name}: ${describeError(err)}${hint}\n`)
    return exitCodeOf(err)
  }
}

/** Writes and waits for the stream to take it, so a large output respects back-pressure. */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()))
  })
}
