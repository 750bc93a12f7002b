/** `reference-records serve`: every setting is an environment variable and a flag of the same name. */
import { SETTING_NAMES, SettingsSchema, flagName, loadConfig, processEnv, type Config } from '../config.js'
import { stat } from 'node:fs/promises'
import {
  buildThreads,
  buildsInProcess,
  prestartBuildThreads,
  releasePrestartedBuildThreads,
} from '../core/snapshots/build-thread.js'
import { UsageError, parseCommandArgs } from './args.js'

/** Exit codes of `serve`, listed in its --help and in docs/operations.md. */
export const SERVE_EXIT = {
  /** Stopped by SIGTERM or SIGINT after draining. */
  ok: 0,
  /** Anything unexpected, or in-flight requests still running 10 s after the stop signal. */
  failure: 1,
  /** A bad option or setting. */
  usage: 2,
  /** The records could not be loaded: missing or unreadable file, unknown format, invalid records. */
  records: 3,
  /** Cannot listen: port in use, host unknown or not an address of this machine, port not allowed. */
  listen: 4,
} as const

export const SERVE_EXIT_CODES_HELP = `Exit codes:
  0  stopped by SIGTERM or SIGINT (after letting requests in flight finish)
  1  unexpected failure, or a shutdown that did not complete 10 s after the stop signal
  2  bad option or setting
  3  records could not be loaded (missing or unreadable file, unknown format, invalid records)
  4  cannot listen (port in use, unknown host, address not of this machine, port not allowed)`

function usage(): string {
  const lines = SETTING_NAMES.map((name) => {
    const description = SettingsSchema.shape[name].description ?? ''
    return `  --${flagName(name).padEnd(20)} ${name}${description ? `: ${description}` : ''}`
  })
  return `Usage: reference-records serve [options]\n\nOptions (each also read from the environment variable named after it; flags win):\n${lines.join('\n')}\n  -h, --help             Show this help\n\n${SERVE_EXIT_CODES_HELP}\n`
}

/** The reason a socket cannot listen, in the operator's terms, with what to change; undefined for other errors. */
export function describeListenError(err: unknown, http: Config['http']): string | undefined {
  const { code, hostname } = err as NodeJS.ErrnoException & { hostname?: string }
  const where = `${http.host}:${http.port}`
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use (another server?); stop it, or choose another port with --port or PORT`
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose a port from 1024 with --port or PORT`
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${http.host} is not an address of this machine; set --host or HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `cannot listen on ${where}: the host name "${hostname ?? http.host}" does not resolve; set --host or HOST to an address (127.0.0.1, 0.0.0.0, ::) or a name of this machine`
    default:
      return undefined
  }
}

/** A failed start as one line for stderr and its exit code; unexpected errors go up to main (exit 1). */
function startFailure(err: unknown, config: Config): { message: string; code: number } {
  const message = err instanceof Error ? err.message : String(err)
  // Every record source reports its failures as "records: <origin>: …" (RecordSource.load's contract).
  if (message.startsWith('records:')) return { message, code: SERVE_EXIT.records }
  const listen = describeListenError(err, config.http)
  if (listen !== undefined) return { message: listen, code: SERVE_EXIT.listen }
  throw err
}

export async function runServe(args: string[]): Promise<number> {
  let flags: Record<string, string | boolean | undefined>
  try {
    const options = Object.fromEntries(SETTING_NAMES.map((n) => [flagName(n), { type: 'string' as const }]))
    flags = parseCommandArgs(args, { ...options, help: { type: 'boolean', short: 'h' } }, false).values
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(
      `reference-records serve: ${err.message}\nRun "reference-records serve --help" for the options.\n`,
    )
    return SERVE_EXIT.usage
  }
  if (flags.help) {
    process.stdout.write(usage())
    return SERVE_EXIT.ok
  }
  let config: Config
  try {
    config = loadConfig(processEnv(), flags as Record<string, string | undefined>)
  } catch (err) {
    process.stderr.write(`reference-records serve: ${(err as Error).message}\n`)
    return SERVE_EXIT.usage
  }
  // A records file is built at once, on every core: its build threads (started by early-build-threads.ts
  // when the CLI runs `serve`) load while the service's modules do. PostgreSQL's first read waits for
  // a connection and a publication, and a small file is built in process: no thread waits for them.
  const fileBytes =
    config.records.databaseUrl === undefined
      ? await stat(config.records.file).then(
          (s) => s.size,
          () => undefined,
        )
      : undefined
  if (fileBytes !== undefined && !buildsInProcess({ bytes: fileBytes })) prestartBuildThreads(buildThreads())
  else releasePrestartedBuildThreads()
  const { startServer } = await import('../service/service.js')
  try {
    await startServer(config, { handleSignals: true })
  } catch (err) {
    const failure = startFailure(err, config)
    process.stderr.write(`reference-records serve: ${failure.message}\n`)
    return failure.code
  }
  return SERVE_EXIT.ok
}
