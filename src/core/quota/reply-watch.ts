/**
 * Decides when a call to the shared store has gone unanswered, in a way a busy event loop cannot
 * trip. A plain timer cannot: when the loop is blocked (a large body built, a burst of requests
 * parsed), the reply may already sit in the socket, yet Node runs due timers before it reads
 * sockets, so the timer fires first and blames the store for the process's own lag. That is how a
 * 25 ms command timeout made a healthy Redis look down under load (issue 43).
 *
 * So the wait is counted in ticks of one repeating timer, each tick crediting at most one `step` of
 * waiting, however late it fires. Two ticks are always separated by a whole turn of the event loop,
 * and every turn reads every socket that is ready. A call is unanswered when a tick finds it still
 * waiting after earlier ticks credited `timeoutMs` (at least `MIN_TICKS` of them): the answer was in
 * none of the reads between those ticks. A loop late by a second credits one step, not a second; on
 * a free loop a call is judged about one step after `timeoutMs`.
 */

/** Time and a repeating timer, injectable so that tests drive them by hand. */
export type WatchClock = {
  now(): number
  /** Calls `tick` every `ms` until the returned function is called; must not keep the process alive. */
  every(ms: number, tick: () => void): () => void
}

export const systemClock: WatchClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms)
    timer.unref()
    return () => clearInterval(timer)
  },
}

/** Fewest ticks (turns of the loop) a call waits through before a later one may judge it, however short the timeout. */
export const MIN_TICKS = 3
/** Smallest tick interval: a 1 ms timeout must not mean a timer every millisecond. */
const MIN_STEP_MS = 5

type Watched = { since: number; credit: number; ticks: number; overdue: () => void }

export class ReplyWatch {
  readonly timeoutMs: number
  readonly stepMs: number
  readonly #clock: WatchClock
  readonly #watched = new Set<Watched>()
  #stop: (() => void) | undefined
  #lastTick = 0

  constructor(timeoutMs: number, clock: WatchClock = systemClock) {
    this.timeoutMs = timeoutMs
    this.stepMs = Math.max(MIN_STEP_MS, timeoutMs / 5)
    this.#clock = clock
  }

  /** Calls in flight. */
  get size(): number {
    return this.#watched.size
  }

  /**
   * Starts watching a call; `overdue` runs once if it goes unanswered. Call the returned function
   * when the call settles (answered or failed): it is then no longer watched.
   */
  watch(overdue: () => void): () => void {
    const watched: Watched = { since: this.#clock.now(), credit: 0, ticks: 0, overdue }
    this.#watched.add(watched)
    if (this.#stop === undefined) {
      // No timer while nothing is in flight: an idle process pays nothing.
      this.#lastTick = watched.since
      this.#stop = this.#clock.every(this.stepMs, () => this.#tick())
    }
    return () => this.#settle(watched)
  }

  #settle(watched: Watched): void {
    if (!this.#watched.delete(watched) || this.#watched.size > 0) return
    this.#stop?.()
    this.#stop = undefined
  }

  #tick(): void {
    const now = this.#clock.now()
    const lastTick = this.#lastTick
    this.#lastTick = now
    for (const watched of this.#watched) {
      // Judged on what earlier ticks credited: if this tick is late, the answer may have come while
      // the loop was busy, and is read after this timer; the next tick comes after that read.
      if (watched.credit >= this.timeoutMs && watched.ticks >= MIN_TICKS) {
        this.#settle(watched)
        watched.overdue()
        continue
      }
      watched.credit += Math.min(now - Math.max(watched.since, lastTick), this.stepMs)
      watched.ticks++
    }
  }
}
