/**
 * What every command shares: its streams and environment, writing with back-pressure, and a failure
 * turned into one message and an exit code. Apart from the client (common.ts): the publishing
 * commands need none of it, and `publish` starts on every publication.
 */
import { fstatSync } from 'node:fs'
import { processEnv } from '../../config.js'
import { isClosedPipe } from '../closed-pipe.js'
import { EXIT, UsageError, describeError, exitCodeOf, type ExitCode } from './exit-codes.js'
import { clearProgress } from './progress.js'

/** The process's streams and environment; tests pass their own. */
export type CliIo = {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  /** Whether stderr is a terminal (the dump's progress bar is drawn only then). */
  stderrIsTTY: boolean
  /** Whether stdout is that same terminal: a bar drawn there would be mixed with the output. */
  stdoutSharesTerminal: boolean
  env: NodeJS.ProcessEnv
}

/** True when file descriptors 1 and 2 are the same terminal device (a plain `reference-records dump` in a shell). */
function sameTerminal(): boolean {
  if (!process.stdout.isTTY || !process.stderr.isTTY) return false
  try {
    return fstatSync(1).rdev === fstatSync(2).rdev
  } catch {
    return true // when in doubt, behave as on one terminal: no bar
  }
}

export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutSharesTerminal: sameTerminal(),
  env: processEnv(),
})

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
    clearProgress()
    if (isClosedPipe(err)) return EXIT.ok
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
