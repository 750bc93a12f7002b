/**
 * Pacing: the client keeps its own request rate within the service's quota (docs/spec.md §7: 120
 * requests per rolling minute per client, `limits.requests_per_minute` in the catalogue), so that a
 * loop in a caller, or a server that keeps handing out work, never sends faster than the quota even
 * when no 429 comes to slow it down.
 *
 * A token bucket in its "virtual scheduling" form (GCRA): a burst of up to 10 requests goes at once
 * (a `search` or a `get` never waits), then one request every `interval`. The interval is chosen so
 * that no rolling 60 s window ever holds more than the quota, burst included:
 * burst + 60 s / interval ≤ quota. Each request reserves its slot before it waits, so the schedule
 * holds whatever the sleep does (a test's fake sleep returns at once and still sees every wait).
 */
import type { Sleep } from './retry.js'

/** The quota of docs/spec.md §7, used until a catalogue says otherwise. */
export const DEFAULT_REQUESTS_PER_MINUTE = 120
const WINDOW_MS = 60_000
const MAX_BURST = 10

export type PacerOptions = {
  /** Requests per rolling minute at most; `auto` (the default): 120 until a catalogue advertises its own; 0: no pacing. */
  requestsPerMinute?: number | 'auto'
  /** Current time in ms; default `Date.now`. */
  now?: () => number
  /** How the pacer waits; default a cancellable timer. */
  sleep?: Sleep
}

function checkRequestsPerMinute(value: number | 'auto'): void {
  if (value !== 'auto' && (!Number.isSafeInteger(value) || value < 0))
    throw new TypeError(
      `RecordsClient: requestsPerMinute must be 'auto' or a whole number ≥ 0 (0: no pacing), got ${value}`,
    )
}

/**
 * One budget of requests. Clients given the same `RequestPacer` (option `pacer`) share it, as
 * the service counts them: by client address, not by object.
 */
export class RequestPacer {
  readonly #auto: boolean
  readonly #now: () => number
  readonly #sleep: Sleep | undefined
  #perMinute = 0
  #burst = 1
  #intervalMs = 0
  /** When the next request would go were there no burst allowance (GCRA's theoretical arrival time). */
  #next = -Infinity

  constructor(options: PacerOptions = {}) {
    const given = options.requestsPerMinute ?? 'auto'
    checkRequestsPerMinute(given)
    this.#auto = given === 'auto'
    this.#now = options.now ?? Date.now
    this.#sleep = options.sleep
    this.#setRate(given === 'auto' ? DEFAULT_REQUESTS_PER_MINUTE : given)
  }

  /** Requests per rolling minute in force; 0 when pacing is off. */
  get requestsPerMinute(): number {
    return this.#perMinute
  }

  /** In `auto` mode, takes the quota a catalogue advertises (a positive whole number; anything else is ignored). */
  adopt(advertised: unknown): void {
    if (this.#auto && typeof advertised === 'number' && Number.isSafeInteger(advertised) && advertised > 0)
      this.#setRate(advertised)
  }

  /** Waits, if needed, until one more request keeps within the quota; rejects with the signal's reason on abort. */
  async take(sleep: Sleep, signal?: AbortSignal): Promise<void> {
    if (this.#perMinute === 0) return
    const now = this.#now()
    const tolerance = (this.#burst - 1) * this.#intervalMs
    const at = Math.max(now, this.#next - tolerance)
    this.#next = Math.max(this.#next, at) + this.#intervalMs
    if (at > now) await (this.#sleep ?? sleep)(Math.ceil(at - now), signal)
  }

  #setRate(perMinute: number): void {
    if (perMinute === this.#perMinute) return
    this.#perMinute = perMinute
    if (perMinute === 0) return
    this.#burst = Math.max(1, Math.min(MAX_BURST, Math.floor(perMinute / 10)))
    // Strictly more than WINDOW / (quota − burst + 1): the burst plus the paced requests of any window stay ≤ quota.
    this.#intervalMs = WINDOW_MS / (perMinute - this.#burst + 1) + 1
  }
}
