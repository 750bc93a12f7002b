/**
 * Redis first, this process's memory when Redis is unreachable or slow. No request waits for a
 * reconnect (the client's offline queue is off, commands time out after a few ms), none gets a 5xx
 * because of Redis; the switch is logged once each way and counted in metrics.
 */
import type { Redis } from 'ioredis'
import type { Metrics } from '../metrics.js'
import type { MemoryRateLimitStore } from './memory-store.js'
import type { RedisRateLimitStore } from './redis-store.js'
import type { Decision, RateLimitStore } from './store.js'

type Log = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }

export class FailoverRateLimitStore implements RateLimitStore {
  #degraded = false

  constructor(
    private readonly primary: RedisRateLimitStore,
    private readonly fallback: MemoryRateLimitStore,
    private readonly log: Log,
    private readonly metrics: Pick<Metrics, 'quotaFallbacks' | 'quotaDegraded'>,
  ) {
    primary.redis.on('ready', () => this.#recover())
  }

  get kind(): string {
    return this.#degraded ? 'memory (redis unavailable)' : 'redis'
  }

  get degraded(): boolean {
    return this.#degraded
  }

  take(key: string, limit: number, windowMs: number): Decision | Promise<Decision> {
    if (this.primary.redis.status !== 'ready') {
      this.#degrade(`redis connection is ${this.primary.redis.status}`)
      return this.fallback.take(key, limit, windowMs)
    }
    return this.primary.take(key, limit, windowMs).then(
      (decision) => {
        // A timeout degrades without the connection dropping, so no 'ready' event follows: an answer ends it.
        if (this.#degraded) this.#recover()
        return decision
      },
      (err: Error) => {
        this.#degrade(err.message)
        return this.fallback.take(key, limit, windowMs)
      },
    )
  }

  #degrade(reason: string): void {
    if (this.#degraded) return
    this.#degraded = true
    this.metrics.quotaFallbacks.inc()
    this.metrics.quotaDegraded.set(1)
    this.log.warn({ reason }, 'quota store unavailable: counting requests in this process until Redis is back')
  }

  #recover(): void {
    if (!this.#degraded) return
    this.#degraded = false
    this.metrics.quotaDegraded.set(0)
    this.log.info({}, 'quota store back: counting requests in Redis again')
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()])
  }
}

/** A Redis client that never makes a request wait: no offline queue, short command timeout, endless reconnects. */
export async function connectRedis(url: string, commandTimeoutMs: number, log: Pick<Log, 'warn'>): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: true,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    lazyConnect: true,
  })
  let reported = false
  // Without a listener an 'error' event would crash the process; the failover store reports the outage.
  redis.on('error', (err: Error) => {
    if (!reported) log.warn({ err: err.message }, 'redis connection error')
    reported = true
  })
  redis.on('ready', () => (reported = false))
  await redis.connect().catch(() => undefined) // unreachable at start: serve from memory, keep reconnecting
  return redis
}
