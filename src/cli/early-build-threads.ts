/**
 * The CLI's first import: for `serve`, the first build's threads start here, before the CLI loads
 * anything else (its settings' schema alone is zod, about a tenth of a second). A thread takes a
 * quarter of a second to load its own modules, and that is on the way to the first snapshot; the
 * serving thread's modules are not. serve.ts takes them for a records file and lets them go when
 * the records come from PostgreSQL (or when it does not start).
 */
import { buildThreads, prestartBuildThreads } from '../core/snapshots/build-thread.js'

const [command, ...args] = process.argv.slice(2)
if (command === 'serve' && !args.some((arg) => arg === '--help' || arg === '-h'))
  prestartBuildThreads(buildThreads())
