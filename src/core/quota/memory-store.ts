/**
 * The default quota store: a sliding log per client in this process. Exact: a request is accepted
 * when fewer than `limit` accepted requests are younger than `windowMs`.
 *
 * Memory: a key's log is an array of timestamps (8 bytes per counted request) and keys are
 * kept in a Map in order of last activity, so a sweep drops idle clients from its head in time
 * proportional to what it drops. docs/operations.md states the measured bound for 1 million clients.
 */
import { WINDOW_MS, secondsUntilExpiry, type Decision, type RateLimitStore } from './quota.js'

/**
 * One client's accepted requests, oldest first, counted per millisecond: `times` holds each distinct
 * millisecond once and `counts` how many requests it took. A client that sends many requests in one
 * millisecond (a limit configured far above the usual one, a service of one's own behind the quota)
 * costs an entry per millisecond, not per request, and the count stays exact: the clock's resolution
 * is the millisecond. `counts` is only made at the first millisecond that takes two requests, so a
 * client at the usual limit keeps one plain array of doubles (V8 stores it unboxed; a Float64Array
 * ring measured 329 instead of 281 bytes per one-request client). Expiry advances `head` and compacts
 * only when most of the arrays are dead, so every operation is amortised O(1) whatever the limit —
 * `shift()` would move the whole array on each request.
 */
class SlidingLog {
  readonly times: number[] = []
  /** Requests per entry of `times`, once a millisecond has taken two; undefined while each entry is one request. */
  counts: number[] | undefined
  head = 0
  /** Requests in the log, from `head` on. */
  size = 0

  /** Drops the requests at or before `cutoff` (they left the window). */
  expire(cutoff: number): void {
    const times = this.times
    const counts = this.counts
    let head = this.head
    while (head < times.length && times[head]! <= cutoff) {
      this.size -= counts === undefined ? 1 : counts[head]!
      head++
    }
    if (head === times.length) {
      times.length = 0
      this.counts = undefined
      this.head = 0
    } else if (head >= 64 && head * 2 >= times.length) {
      times.splice(0, head)
      counts?.splice(0, head)
      this.head = 0
    } else this.head = head
  }

  oldest(): number {
    return this.times[this.head]!
  }

  newest(): number {
    return this.times[this.times.length - 1]!
  }

  push(time: number): void {
    const times = this.times
    const last = times.length - 1
    this.size++
    if (last >= this.head && times[last] === time) {
      // A second request in the same millisecond: from now on each entry carries its count.
      const counts = (this.counts ??= new Array<number>(times.length).fill(1))
      counts[last]!++
      return
    }
    times.push(time)
    this.counts?.push(1)
  }
}

export type MemoryStoreOptions = {
  /** Length of the rolling window, in ms. Default 60 000. */
  windowMs?: number
  /** Clock in milliseconds; injectable for tests. Default Date.now. */
  now?: () => number
  /** How often idle clients are forgotten, in ms. Default 10 000. */
  sweepIntervalMs?: number
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory'
  readonly #logs = new Map<string, SlidingLog>()
  /** The key of the last entry of #logs: a client's next request in a row leaves the order as it is. */
  #newest: string | undefined
  readonly #now: () => number
  readonly #sweepIntervalMs: number
  #lastSweep: number
  readonly windowMs: number

  constructor(options: MemoryStoreOptions = {}) {
    this.windowMs = options.windowMs ?? WINDOW_MS
    this.#now = options.now ?? Date.now
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 10_000
    this.#lastSweep = this.#now()
  }

  /** Number of clients currently remembered. */
  get size(): number {
    return this.#logs.size
  }

  take(key: string, limit: number): Decision {
    const now = this.#now()
    const windowMs = this.windowMs
    if (now - this.#lastSweep >= this.#sweepIntervalMs) this.sweep(now)
    let log = this.#logs.get(key)
    if (log === undefined) this.#logs.set(key, (log = new SlidingLog()))
    else if (key !== this.#newest) {
      // Moved to the end: the Map stays ordered by last activity.
      this.#logs.delete(key)
      this.#logs.set(key, log)
    }
    this.#newest = key
    log.expire(now - windowMs)
    if (log.size >= limit) {
      return { allowed: false, remaining: 0, resetSeconds: secondsUntilExpiry(log.oldest(), now, windowMs) }
    }
    log.push(now)
    return {
      allowed: true,
      remaining: limit - log.size,
      resetSeconds: secondsUntilExpiry(log.oldest(), now, windowMs),
    }
  }

  /** Forgets clients with nothing left in the window. Idle clients sit at the head of the Map. */
  sweep(now = this.#now()): void {
    this.#lastSweep = now
    const cutoff = now - this.windowMs
    for (const [key, log] of this.#logs) {
      if (log.size > 0 && log.newest() > cutoff) break
      this.#logs.delete(key)
      if (key === this.#newest) this.#newest = undefined
    }
  }

  async close(): Promise<void> {
    this.#logs.clear()
    this.#newest = undefined
  }
}
