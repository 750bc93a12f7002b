/**
 * The CLI's first import: for `serve`, the first build's threads start here, before the CLI loads
 * anything else (its settings' schema alone is zod, about a tenth of a second). A thread takes a
 * quarter of a second to load its own modules, and that is on the way to the first snapshot; the
 * serving thread's modules are not. serve.ts takes them for a large records file and lets them go
 * otherwise. None start for PostgreSQL (its first read waits for a publication) or for a file small
 * enough to be built in process (buildsInProcess: the bundled sample): on two cores, threads that
 * are never used would only slow the start down.
 */
import { statSync } from 'node:fs'
import { buildThreads, buildsInProcess, prestartBuildThreads } from '../core/snapshots/build-thread.js'

const [command, ...args] = process.argv.slice(2)

/** The value of `--name VALUE` or `--name=VALUE`, else the environment's; empty is unset, as in config.ts. */
function setting(name: string): string | undefined {
  const flag = `--${name.toLowerCase().replaceAll('_', '-')}`
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) return args[i + 1] || undefined
    if (args[i]!.startsWith(`${flag}=`)) return args[i]!.slice(flag.length + 1) || undefined
  }
  // eslint-disable-next-line no-restricted-properties -- config.ts loads zod, what this module runs before; serve.ts decides again from the settings
  return process.env[name] || undefined
}

function recordsFileSize(): number | undefined {
  const file = setting('RECORDS_FILE') ?? new URL('../../data/records.json', import.meta.url)
  try {
    return statSync(file).size
  } catch {
    return undefined // the start reports it
  }
}

if (
  command === 'serve' &&
  !args.some((arg) => arg === '--help' || arg === '-h') &&
  setting('DATABASE_URL') === undefined &&
  !buildsInProcess({ bytes: recordsFileSize() })
)
  prestartBuildThreads(buildThreads())
