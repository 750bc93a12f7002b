#!/usr/bin/env node
/** The `reference-records` command: `serve` runs the service; more commands join as the project grows. */
import { runServe } from './serve.js'

const USAGE = `Usage: reference-records <command> [options]

Commands:
  serve     Run the HTTP API (see --help of the command)

Run "reference-records <command> --help" for a command's options.`

/** Exit codes: 0 ok, 1 failure, 2 usage error. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'serve':
      return runServe(rest)
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${USAGE}\n`)
      return command === undefined ? 2 : 0
    default:
      process.stderr.write(`reference-records: unknown command "${command}"\n\n${USAGE}\n`)
      return 2
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
