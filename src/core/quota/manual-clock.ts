/**
 * A WatchClock driven by hand, for the quota's unit tests: `run` lets time pass on a free event
 * loop (each timer fires on time), `block` stands for a loop busy with other work (time jumps, and
 * each timer that fell due fires once, late, as Node's do).
 */
import type { WatchClock } from './reply-watch.js'

type Timer = { ms: number; next: number; tick: () => void }

export class ManualClock implements WatchClock {
  #now = 0
  readonly #timers = new Set<Timer>()

  now(): number {
    return this.#now
  }

  every(ms: number, tick: () => void): () => void {
    const timer = { ms, next: this.#now + ms, tick }
    this.#timers.add(timer)
    return () => this.#timers.delete(timer)
  }

  /** Repeating timers running. */
  get timers(): number {
    return this.#timers.size
  }

  /** Time passes on a free loop: every timer fires when due, in order. */
  async run(ms: number): Promise<void> {
    const end = this.#now + ms
    for (;;) {
      const due = [...this.#timers].sort((a, b) => a.next - b.next)[0]
      if (due === undefined || due.next > end) break
      this.#now = due.next
      due.next += due.ms
      due.tick()
      await settled()
    }
    this.#now = end
    await settled()
  }

  /** The loop is busy for `ms`: time jumps, then each timer that fell due fires once, late. */
  async block(ms: number): Promise<void> {
    this.#now += ms
    for (const timer of [...this.#timers]) {
      if (timer.next > this.#now || !this.#timers.has(timer)) continue
      timer.next = this.#now + timer.ms
      timer.tick()
    }
    await settled()
  }
}

/** Lets promise callbacks already due run (what the loop does between two timers). */
export async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}
