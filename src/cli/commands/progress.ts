/**
 * Progress of a long command (dump, sync, publish, rollback): a bar on stderr when it is a terminal,
 * nothing otherwise, and, either way, the waits for a retry (in the bar once it is drawn, as lines
 * before). The command ends with its one summary line, written by the command itself: a script's
 * log then shows what it did, and a terminal shows it under the bar that was cleared.
 */
import { createRequire } from 'node:module'
import type cliProgress from 'cli-progress'
import type { RetryEvent } from '../../client/index.js'
import { formatRetry } from './retry-notice.js'

export type Progress = {
  /** A step begins: its label ('' for none), its unit and its size when known (else a count is shown). */
  step(label: string, options?: { total?: number; unit?: string }): void
  /** How far the current step is; a `total` given replaces the one known. */
  update(done: number, total?: number): void
  /** Reported before each wait for a retry. */
  onRetry(event: RetryEvent): void
  /** Clears the bar (before the command writes a line on the same terminal, or at its end). */
  clear(): void
  /** Whether a bar is drawn at all (stderr is a terminal, and the command allows it). */
  readonly drawn: boolean
}

type Payload = { step: string; unit: string; status: string; known: boolean }

const BAR_SIZE = 30

/**
 * The bar's package (21 modules), loaded when a bar is first drawn: a command whose stderr is not a
 * terminal (a script, a publish job) never draws one. It is CommonJS, so it loads synchronously.
 */
let barModule: typeof cliProgress | undefined
const bars = () => (barModule ??= createRequire(import.meta.url)('cli-progress') as typeof cliProgress)

/** What of the command's streams progress uses (common.ts's CliIo has them). */
type ProgressIo = { stderr: NodeJS.WritableStream; stderrIsTTY: boolean }

/** The bars drawn now: a command that fails clears them before its message (and their timers end). */
const drawn = new Set<() => void>()

/** Clears every bar still drawn (`runClientCommand` calls it before printing a failure). */
export function clearProgress(): void {
  for (const clear of [...drawn]) clear()
}

/** The line: "dump [████░░] 3/10 records", or "publish: reading records.ndjson… 1200" while the size is unknown. */
function formatLine(name: string) {
  return (
    _options: unknown,
    params: { progress: number; value: number; total: number },
    payload: Payload,
  ) => {
    const head = payload.step === '' ? name : `${name}: ${payload.step}`
    if (!payload.known)
      return `${head}…${params.value > 0 ? ` ${params.value} ${payload.unit}` : ''}${payload.status}`
    const filled = Math.round(Math.min(1, Math.max(0, params.progress)) * BAR_SIZE)
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_SIZE - filled)}`
    return `${head} [${bar}] ${params.value}/${params.total} ${payload.unit}${payload.status}`
  }
}

/**
 * The progress of command `name`; `allowed` false draws nothing (dump without --out to the same
 * terminal: the bar would be glued to the records).
 */
export function commandProgress(io: ProgressIo, name: string, allowed = true): Progress {
  const printRetry = (event: RetryEvent) => {
    io.stderr.write(`reference-records ${name}: ${formatRetry(event)}\n`)
  }
  if (!io.stderrIsTTY || !allowed)
    return { step: () => {}, update: () => {}, onRetry: printRetry, clear: () => {}, drawn: false }
  let bar: cliProgress.SingleBar | undefined
  let payload: Payload = { step: '', unit: '', status: '', known: false }
  let countdown: ReturnType<typeof setInterval> | undefined
  const clear = () => {
    clearInterval(countdown)
    bar?.stop()
    bar = undefined
    drawn.delete(clear)
  }
  return {
    drawn: true,
    step(label, options = {}) {
      clear()
      payload = { step: label, unit: options.unit ?? '', status: '', known: options.total !== undefined }
      bar = new (bars().SingleBar)({
        stream: io.stderr,
        format: formatLine(name),
        hideCursor: true,
        clearOnComplete: true,
        // Redrawn when the value moves, at most 10 times a second, and not on a timer: a test's fake clock stays still.
        fps: 10,
        etaBuffer: 20,
      })
      bar.start(options.total ?? 0, 0, payload)
      drawn.add(clear)
    },
    update(done, total) {
      if (bar === undefined) return
      clearInterval(countdown)
      if (total !== undefined) {
        payload = { ...payload, known: true }
        bar.setTotal(Math.max(total, done))
      }
      payload = { ...payload, status: '' }
      bar.update(done, payload)
    },
    onRetry(event) {
      if (bar === undefined) return printRetry(event)
      // The bar says why it does not move, and counts the wait down each second.
      clearInterval(countdown)
      const until = Date.now() + event.waitMs
      const show = () => {
        payload = {
          ...payload,
          status: ` · ${formatRetry({ ...event, waitMs: Math.max(0, until - Date.now()) })}`,
        }
        bar?.update(payload)
      }
      show()
      countdown = setInterval(() => (Date.now() >= until ? clearInterval(countdown) : show()), 1000)
      countdown.unref()
    },
    clear,
  }
}
