/**
 * Redis first, this process's memory when Redis is unreachable or slow. No request waits for a
 * reconnect (the client's offline queue is off, commands time out after a few ms), none gets a 5xx
 * because of Redis; the switch is logged once each way and reported to `onDegraded`/`onRecovered`.
 */
import type { Log } from '../log.js'
import type { Decision, RateLimitStore } from './store.js'

/**
 * What the failover needs of the shared store (RedisRateLimitStore): its decisions, and its
 * connection's state and `ready` event, so that no request is sent to a connection known to be down.
 */
export type SharedRateLimitStore = Omit<RateLimitStore, 'take'> & {
  take(key: string, limit: number): Promise<Decision>
  readonly redis: { readonly status: string; on(event: 'ready', listener: () => void): unknown }
}

export type FailoverEvents = {
  log: Pick<Log, 'warn' | 'info'>
  /** Called when the process starts counting in memory (to count fallbacks, raise a gauge). */
  onDegraded?: () => void
  /** Called when Redis answers again. */
  onRecovered?: () => void
}

export class FailoverRateLimitStore implements RateLimitStore {
  #degraded = false
  readonly windowMs: number

  constructor(
    private readonly primary: SharedRateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly events: FailoverEvents,
  ) {
    if (primary.windowMs !== fallback.windowMs)
      throw new Error('quota: the Redis and memory stores must share one window')
    this.windowMs = primary.windowMs
    primary.redis.on('ready', () => this.#recover())
  }

  get kind(): string {
    return this.#degraded ? 'memory (redis unavailable)' : 'redis'
  }

  get degraded(): boolean {
    return this.#degraded
  }

  take(key: string, limit: number): Decision | Promise<Decision> {
    if (this.primary.redis.status !== 'ready') {
      this.#degrade(`redis connection is ${this.primary.redis.status}`)
      return this.fallback.take(key, limit)
    }
    return this.primary.take(key, limit).then(
      (decision) => {
        // A timeout degrades without the connection dropping, so no 'ready' event follows: an answer ends it.
        if (this.#degraded) this.#recover()
        return decision
      },
      (err: Error) => {
        this.#degrade(err.message)
        return this.fallback.take(key, limit)
      },
    )
  }

  #degrade(reason: string): void {
    if (this.#degraded) return
    this.#degraded = true
    this.events.onDegraded?.()
    this.events.log.warn(
      { reason },
      'quota store unavailable: counting requests in this process until Redis is back',
    )
  }

  #recover(): void {
    if (!this.#degraded) return
    this.#degraded = false
    this.events.onRecovered?.()
    this.events.log.info({}, 'quota store back: counting requests in Redis again')
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()])
  }
}
