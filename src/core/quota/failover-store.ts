/**
 * Redis decides while it answers, however slowly; this process's memory decides, for at most its
 * share of the limit, while Redis is unavailable.
 *
 * - **A slow answer is not an outage.** A request waits for Redis's answer. A call fails only when
 *   the connection is down, when Redis refuses it, or when it goes unanswered for `replyTimeoutMs`
 *   counted by a ReplyWatch, which a busy event loop cannot trip (reply-watch.ts). The request
 *   whose call failed is decided from memory, within the share.
 * - **Unavailable only after consecutive failures** (`failuresToDeclare`, 3): one lost call is not an
 *   outage. Then every request is decided from memory at once, nothing waits, a warning is logged,
 *   and Redis is probed (`probeIntervalMs`, and at each reconnection) until it runs the quota's
 *   script again: counting then returns to Redis, and that is logged too.
 * - **At most a share per replica while unavailable:** memory admits `floor(limit × outageShare)`
 *   per client, so replicas counting apart admit about the limit between them, not the limit each.
 *   While Redis decides, each request it admits is also counted in memory (up to the share), so a
 *   client that spent its budget just before the outage does not get a fresh share on top of it;
 *   what memory admitted is written to Redis when it is back, so the minute after holds it too.
 */
import type { Log } from '../log.js'
import { ReplyWatch, systemClock, type WatchClock } from './reply-watch.js'
import type { Decision, RateLimitStore } from './quota.js'

/**
 * What the failover needs of the shared store (RedisRateLimitStore): its decisions, a cheap probe,
 * and its connection's state and `ready` event, so that no request is sent to a connection known to be down.
 */
export type SharedRateLimitStore = Omit<RateLimitStore, 'take'> & {
  take(key: string, limit: number): Promise<Decision>
  /** Counts requests admitted elsewhere (from memory), whatever the limit. */
  record(key: string, count: number): Promise<void>
  probe(): Promise<void>
  readonly redis: {
    readonly status: string
    on(event: 'ready', listener: () => void): unknown
    /** ioredis: drops the connection; with `true`, reconnects (failing the calls still unanswered). */
    disconnect(reconnect?: boolean): void
  }
}

/** The store in memory: synchronous, so a request decided there never waits. */
export type LocalRateLimitStore = Omit<RateLimitStore, 'take'> & {
  take(key: string, limit: number): Decision
}

/** Why a call to the shared store failed: its connection was down, it was refused, or no answer came. */
export type FailureReason = 'disconnected' | 'refused' | 'unanswered'

export type FailoverEvents = {
  log: Pick<Log, 'warn' | 'info'>
  /** Each failed call, declared outage or not (for a counter). */
  onFailure?: (reason: FailureReason) => void
  /** The shared store is declared unavailable: this process counts in memory. */
  onDegraded?: () => void
  /** The shared store answers again: counting is back there. */
  onRecovered?: () => void
}

export type FailoverOptions = {
  /** Share of the limit each replica admits per client while Redis is unavailable, in (0, 1]. */
  outageShare: number
  /** How long a call may go unanswered, counted while the process can read the answer. */
  replyTimeoutMs: number
  /** Consecutive failed calls that declare the store unavailable. Default 3. */
  failuresToDeclare?: number
  /** How often an unavailable store is probed. Default 1 000 ms. */
  probeIntervalMs?: number
  /** Time and timers; tests drive them by hand. */
  clock?: WatchClock
}

/** ioredis states after a connection failed or was closed (not those of a first attempt under way). */
const FAILED_CONNECTION = new Set(['reconnecting', 'close', 'end'])

/** Clients whose admissions from memory are kept for Redis, at most (about 100 bytes each). */
const MAX_OWED_CLIENTS = 100_000

export const DEGRADED_MESSAGE =
  'quota store unavailable: counting requests in this process, within its share of the limit, until Redis answers again'
export const RECOVERED_MESSAGE = 'quota store back: counting requests in Redis again'

export class FailoverRateLimitStore implements RateLimitStore {
  readonly windowMs: number
  readonly outageShare: number
  readonly #watch: ReplyWatch
  readonly #clock: WatchClock
  readonly #failuresToDeclare: number
  readonly #probeIntervalMs: number
  #unavailable = false
  #consecutiveFailures = 0
  #stopProbing: (() => void) | undefined
  #probing = false
  /**
   * Per client, the requests admitted from memory, for Redis once it is back: [second, count] pairs
   * (this clock), so that a client of a limit in the millions costs at most one pair a second.
   */
  #owed = new Map<string, [number, number][]>()

  constructor(
    private readonly primary: SharedRateLimitStore,
    private readonly fallback: LocalRateLimitStore,
    private readonly events: FailoverEvents,
    options: FailoverOptions,
  ) {
    if (primary.windowMs !== fallback.windowMs)
      throw new Error('quota: the Redis and memory stores must share one window')
    if (!(options.outageShare > 0 && options.outageShare <= 1))
      throw new Error('quota: the outage share must be more than 0 and at most 1')
    this.windowMs = primary.windowMs
    this.outageShare = options.outageShare
    this.#clock = options.clock ?? systemClock
    this.#watch = new ReplyWatch(options.replyTimeoutMs, this.#clock)
    this.#failuresToDeclare = options.failuresToDeclare ?? 3
    this.#probeIntervalMs = options.probeIntervalMs ?? 1_000
    primary.redis.on('ready', () => this.#probe())
    // The first connection attempt failed before this store was made: already an outage.
    if (FAILED_CONNECTION.has(primary.redis.status))
      this.#declare(`redis connection is ${primary.redis.status}`)
  }

  get kind(): string {
    return this.#unavailable ? 'memory (redis unavailable)' : 'redis'
  }

  get degraded(): boolean {
    return this.#unavailable
  }

  /** What this process admits per client while Redis is unavailable, for a limit. */
  shareOf(limit: number): number {
    return Math.max(1, Math.floor(limit * this.outageShare))
  }

  take(key: string, limit: number): Decision | Promise<Decision> {
    const share = this.shareOf(limit)
    if (this.#unavailable) return this.#fromMemory(key, share)
    const status = this.primary.redis.status
    if (status !== 'ready') {
      this.#failed('disconnected', `redis connection is ${status}`)
      return this.#fromMemory(key, share)
    }
    return new Promise<Decision>((resolve) => {
      let decided = false
      const fromMemory = (reason: FailureReason, detail: string) => {
        decided = true
        this.#failed(reason, detail)
        resolve(this.#fromMemory(key, share))
      }
      const settle = this.#watch.watch(() => fromMemory('unanswered', 'no answer from redis'))
      this.primary.take(key, limit).then(
        (decision) => {
          settle()
          if (decided) return // already decided from memory; Redis counted it too, which errs on the safe side
          decided = true
          this.#consecutiveFailures = 0
          // Requests decided from memory after a lost call, without an outage: Redis answers again.
          if (this.#owed.size > 0 && !this.#unavailable) this.#repay()
          // Counted here too, so that an outage starts from what this process already admitted.
          if (decision.allowed) this.fallback.take(key, share)
          resolve(decision)
        },
        (err: Error) => {
          settle()
          if (!decided) fromMemory('refused', err.message)
        },
      )
    })
  }

  /** Decides from memory, within the share; an admitted request is owed to Redis. */
  #fromMemory(key: string, share: number): Decision {
    const decision = this.fallback.take(key, share)
    if (decision.allowed && (this.#owed.size < MAX_OWED_CLIENTS || this.#owed.has(key))) {
      const second = Math.floor(this.#clock.now() / 1000)
      const owed = this.#owed.get(key) ?? []
      // Only what is still in the window is owed: a long outage does not pile up.
      while (owed.length > 0 && owed[0]![0] <= second - this.windowMs / 1000) owed.shift()
      const last = owed.at(-1)
      if (last?.[0] === second) last[1]++
      else owed.push([second, 1])
      this.#owed.set(key, owed)
    }
    return decision
  }

  /** Writes to Redis what memory admitted meanwhile, so that the window after an outage holds it. */
  #repay(): void {
    const owed = this.#owed
    this.#owed = new Map()
    const cutoff = Math.floor(this.#clock.now() / 1000) - this.windowMs / 1000
    for (const [key, seconds] of owed) {
      // A second that began before the window started may still be partly in it: kept (the safe side).
      const count = seconds.reduce((sum, [second, n]) => (second >= cutoff ? sum + n : sum), 0)
      // Best effort: a call lost here only makes the next minute as lenient as the outage was.
      if (count > 0) this.primary.record(key, count).catch(() => undefined)
    }
  }

  #failed(reason: FailureReason, detail: string): void {
    this.events.onFailure?.(reason)
    if (this.#unavailable) return
    if (++this.#consecutiveFailures < this.#failuresToDeclare) return
    this.#declare(detail)
    // Calls that get no answer on a connection that looks up (a paused server, a silent network):
    // reconnect, so that those calls fail now and a dead link shows as one.
    if (reason === 'unanswered' && this.primary.redis.status === 'ready') this.primary.redis.disconnect(true)
  }

  #declare(reason: string): void {
    this.#unavailable = true
    this.events.onDegraded?.()
    this.events.log.warn(
      { reason, failures: this.#consecutiveFailures, outageShare: this.outageShare },
      DEGRADED_MESSAGE,
    )
    this.#stopProbing = this.#clock.every(this.#probeIntervalMs, () => this.#probe())
  }

  /** While unavailable: one probe at a time, on a connection that is up; its answer ends the outage. */
  #probe(): void {
    if (!this.#unavailable || this.#probing || this.primary.redis.status !== 'ready') return
    this.#probing = true
    let done = false
    const settle = this.#watch.watch(() => {
      done = true
      this.#probing = false
    })
    this.primary.probe().then(
      () => {
        settle()
        if (done) return
        this.#probing = false
        this.#recover()
      },
      () => {
        settle()
        if (done) return
        this.#probing = false
      },
    )
  }

  #recover(): void {
    if (!this.#unavailable) return
    this.#unavailable = false
    this.#consecutiveFailures = 0
    this.#stopProbing?.()
    this.#stopProbing = undefined
    this.#repay()
    this.events.onRecovered?.()
    this.events.log.info({}, RECOVERED_MESSAGE)
  }

  async close(): Promise<void> {
    this.#stopProbing?.()
    this.#stopProbing = undefined
    await Promise.all([this.primary.close(), this.fallback.close()])
  }
}
