/** Chooses the quota's store from the settings: none (0), this process's memory, or Redis with memory as fallback. */
import type { Config } from '../config.js'
import type { Metrics } from '../metrics.js'
import { FailoverRateLimitStore, connectRedis } from './failover-store.js'
import { MemoryRateLimitStore } from './memory-store.js'
import { Quota } from './quota.js'
import { RedisRateLimitStore } from './redis-store.js'

type Log = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }

export async function createQuota(settings: Config['quota'], log: Log, metrics: Metrics): Promise<Quota | undefined> {
  if (settings.perMinute === 0) return undefined
  if (settings.redisUrl === undefined) return new Quota(new MemoryRateLimitStore(), settings.perMinute)
  const redis = await connectRedis(settings.redisUrl, settings.redisTimeoutMs, log)
  const store = new FailoverRateLimitStore(
    new RedisRateLimitStore(redis, { keyPrefix: settings.redisKeyPrefix }),
    new MemoryRateLimitStore(),
    log,
    metrics,
  )
  return new Quota(store, settings.perMinute)
}
