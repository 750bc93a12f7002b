/**
 * How long the serving thread is held, measured two ways over a window (a request, or an idle
 * stretch to compare it with):
 *
 * - `loopDelayMs`: `monitorEventLoopDelay`'s largest delay, the wall-clock figure a client feels.
 *   On a busy machine it also counts the time the process waited for a core, doing nothing: at a
 *   load average of 20 on 2 cores, hundreds of milliseconds for `/healthz`.
 * - `turnCpuMs`: the serving thread's own CPU time between two consecutive ticks of a 1 ms timer,
 *   the largest such gap in the window. A timer tick runs once per turn of the event loop, so this
 *   is at least the CPU of the longest turn (plus the few other callbacks of that turn); and it is
 *   what the thread ran, not how long it waited to run, so the machine's load cannot inflate it
 *   (beyond what sharing caches costs). Read from the kernel's per-thread counter
 *   (`/proc/self/task/PID/schedstat`, nanoseconds on CPU; the main thread's id is the process's),
 *   about 5 µs a read. Node 20 has no `process.threadCpuUsage()`; `process.cpuUsage()` would count
 *   the build and zlib threads too.
 */
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`

/** The serving thread's CPU time so far, in ms; undefined where the kernel does not say (not Linux). */
function threadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ', 1)[0]) / 1e6
  } catch {
    return undefined
  }
}

export type TurnFigures = {
  /** The largest event-loop delay, wall clock, in ms. */
  loopDelayMs: number
  /** The largest CPU time the serving thread ran between two ticks, in ms; NaN where unknown. */
  turnCpuMs: number
  /** The serving thread's CPU time over the whole window, in ms; NaN where unknown. */
  cpuMs: number
}

export class TurnMonitor {
  readonly #delay = monitorEventLoopDelay({ resolution: 1 })
  #timer: NodeJS.Timeout | undefined
  #lastCpu = 0
  #firstCpu = 0
  #longestCpu = 0

  /** Starts a window; the figures of the last one are dropped. */
  start(): void {
    if (this.#timer !== undefined) throw new Error('TurnMonitor: already started')
    this.#delay.reset()
    this.#delay.enable()
    this.#firstCpu = this.#lastCpu = threadCpuMs() ?? NaN
    this.#longestCpu = 0
    this.#timer = setInterval(() => this.#tick(), 1)
  }

  #tick(): void {
    const now = threadCpuMs() ?? NaN
    this.#longestCpu = Math.max(this.#longestCpu, now - this.#lastCpu)
    this.#lastCpu = now
  }

  /** Ends the window and returns its figures. */
  stop(): TurnFigures {
    if (this.#timer === undefined) throw new Error('TurnMonitor: not started')
    this.#tick()
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#delay.disable()
    return {
      loopDelayMs: this.#delay.max / 1e6,
      turnCpuMs: this.#longestCpu,
      cpuMs: this.#lastCpu - this.#firstCpu,
    }
  }
}
