/** Chooses the quota's store from the settings: none (0), this process's memory, or Redis with memory as fallback. */
import type { Log } from '../log.js'
import { FailoverRateLimitStore, type FailoverEvents } from './failover-store.js'
import { MemoryRateLimitStore } from './memory-store.js'
import { Quota } from './quota.js'
import { connectRedis } from './redis-connection.js'
import { RedisRateLimitStore } from './redis-store.js'

export type QuotaSettings = {
  /** Requests per rolling minute per client; 0 disables the quota. */
  perMinute: number
  /** Redis shared by every replica; each process counts in memory without it. */
  redisUrl?: string
  /** Prefix of every Redis key. */
  redisKeyPrefix: string
  /**
   * How long a call to Redis may go unanswered, counted while this process can read the answer
   * (a busy event loop does not count), before it is a failure; three in a row are an outage.
   */
  redisTimeoutMs: number
  /** Share of the limit each replica admits per client while Redis is unavailable, in (0, 1]. */
  outageShare: number
}

/** The quota, or undefined when disabled. The caller owns it: `quota.close()` releases Redis. */
export async function createQuota(
  settings: QuotaSettings,
  events: FailoverEvents & { log: Log },
): Promise<Quota | undefined> {
  if (settings.perMinute === 0) return undefined
  if (settings.redisUrl === undefined) return new Quota(new MemoryRateLimitStore(), settings.perMinute)
  const redis = await connectRedis(settings.redisUrl, events.log)
  const store = new FailoverRateLimitStore(
    new RedisRateLimitStore(redis, { keyPrefix: settings.redisKeyPrefix }),
    new MemoryRateLimitStore(),
    events,
    { outageShare: settings.outageShare, replyTimeoutMs: settings.redisTimeoutMs },
  )
  return new Quota(store, settings.perMinute)
}
