/**
 * How large and how slow an answer may be before the client gives up on it (docs/api.md, "Client
 * limits"). Without them a broken or hostile server could make a reader hold an endless body in
 * memory, re-scan an endless line, or wait forever on a body sent a byte at a time. Each limit is a
 * client option; 0 turns it off.
 *
 * The defaults are far above what the real service sends. Measured (2026-12-02) on the bundled 264
 * records: the catalogue is 1.5 kB, the OpenAPI document 75 kB, the largest search page at
 * `limit=50` 106 kB, the longest line of the download 4.5 kB, the download 428 kB. On a generated
 * corpus (`npm run corpus:generate`, 1 654 bytes a record on average, 4.5 kB at most), the 50
 * largest records together are 193 kB, and the download at 1 000 000 records is 1.66 GB. The record
 * bounds (1 000 000 characters a record, at most 3 UTF-8 bytes each) cap one record's JSON at about
 * 3.1 MB.
 */
import { ResponseLimitError, type ResponseLimit } from './errors.js'

const MiB = 1024 * 1024
const GiB = 1024 * MiB

export type Limits = {
  /** Largest JSON answer, in bytes (64 MiB: over 300 times the largest search page, 20 largest-possible records). */
  maxResponseBytes: number
  /** Longest line of the download, in bytes (8 MiB: 2.5 times the largest record the bounds allow). */
  maxLineBytes: number
  /** Largest download, in bytes (32 GiB: about 20 times the download at 1 000 000 records). */
  maxDownloadBytes: number
  /** Longest a JSON answer may take, from sending to its last byte, in ms (60 s). */
  timeoutMs: number
  /** Longest wait for the next byte of any answer, its headers included, in ms (30 s). */
  idleTimeoutMs: number
  /**
   * Longest a download may keep the client waiting, in ms (1 h): the time spent waiting for its
   * bytes, not the time its reader takes (a dump to a slow disk or pipe is not the server's fault).
   * An hour is 1.66 GB at 0.5 MB/s.
   */
  downloadTimeoutMs: number
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxResponseBytes: 64 * MiB,
  maxLineBytes: 8 * MiB,
  maxDownloadBytes: 32 * GiB,
  timeoutMs: 60_000,
  idleTimeoutMs: 30_000,
  downloadTimeoutMs: 3_600_000,
}

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]

/** The limits given, over the defaults; each a whole number ≥ 0 (0: no limit). */
export function resolveLimits(given: Partial<Record<keyof Limits, number | undefined>>): Limits {
  const limits = { ...DEFAULT_LIMITS }
  for (const name of LIMIT_NAMES) {
    const value = given[name]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || value < 0)
      throw new TypeError(`RecordsClient: ${name} must be a whole number ≥ 0 (0: no limit), got ${value}`)
    limits[name] = value
  }
  return limits
}

/** "64 MiB", "8 kB", "512 bytes"; "30 s", "1.5 s", "250 ms". */
function describeBytes(n: number): string {
  if (n >= GiB && n % GiB === 0) return `${n / GiB} GiB`
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}
function describeMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`
}

/**
 * The clock of one exchange with the server: a budget of waiting time (or none), an idle limit, and
 * an abort of the request when either is passed. `wait` races each step (the headers, each chunk)
 * against the nearer of the two, so the time the caller takes between steps is never counted.
 */
export class ExchangeClock {
  readonly #controller = new AbortController()
  readonly #idleMs: number
  readonly #url: string
  #budget: { limit: ResponseLimit; ms: number; left: number }
  #expired: ResponseLimitError | undefined

  constructor(limits: Limits, url: string) {
    this.#idleMs = limits.idleTimeoutMs
    this.#url = url
    this.#budget = { limit: 'timeoutMs', ms: limits.timeoutMs, left: limits.timeoutMs }
  }

  /** Aborts the request when the clock expires. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** The error the clock expired with, if it did: a read that ended at that moment must not look like an end. */
  get expired(): ResponseLimitError | undefined {
    return this.#expired
  }

  /** From now on, the time waited counts against `limit` (`ms`; 0: none): a download, once its headers came. */
  rebudget(limit: ResponseLimit, ms: number): void {
    this.#budget = { limit, ms, left: ms }
  }

  /** `step`, or the limit's error if the idle limit or the budget left runs out first. */
  async wait<T>(step: Promise<T>): Promise<T> {
    const budget = this.#budget.ms === 0 ? Infinity : this.#budget.left
    const idle = this.#idleMs === 0 ? Infinity : this.#idleMs
    const ms = Math.min(budget, idle)
    if (ms === Infinity) return step
    const started = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = idle <= budget ? this.#idleError() : this.#budgetError()
        this.#expired = error
        this.#controller.abort(error)
        reject(error)
      }, ms)
    })
    try {
      return await Promise.race([step, expiry])
    } finally {
      clearTimeout(timer)
      this.#budget.left = Math.max(1, this.#budget.left - (Date.now() - started))
      step.catch(() => undefined) // a step left behind by the expiry must not reject unhandled
    }
  }

  #idleError(): ResponseLimitError {
    const ms = this.#idleMs
    return new ResponseLimitError(
      'idleTimeoutMs',
      ms,
      `${this.#url} sent nothing for ${describeMs(ms)} (the limit idleTimeoutMs); given up`,
      this.#url,
    )
  }

  #budgetError(): ResponseLimitError {
    const { limit, ms } = this.#budget
    const what = limit === 'timeoutMs' ? 'did not answer whole within' : 'kept its download waiting more than'
    return new ResponseLimitError(
      limit,
      ms,
      `${this.#url} ${what} ${describeMs(ms)} (the limit ${limit}); given up`,
      this.#url,
    )
  }
}

/** The error of an answer past a size limit. */
export function sizeError(
  limit: ResponseLimit,
  value: number,
  url: string,
  what: string,
): ResponseLimitError {
  const size = limit === 'maxDownloadRecords' ? `${value} records` : describeBytes(value)
  return new ResponseLimitError(
    limit,
    value,
    `${url}: ${what} more than ${size} (the limit ${limit}); given up`,
    url,
  )
}
