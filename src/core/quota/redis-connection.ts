/**
 * The quota's Redis client. It has no offline queue (a request never waits for a reconnect: the
 * failover store decides from memory while the connection is down) and no command timeout: how
 * long an answer may take is judged by the failover store's ReplyWatch, which, unlike ioredis's
 * per-command timer, a busy event loop cannot trip.
 */
import type { Redis } from 'ioredis'
import type { Log } from '../log.js'

/** Connects (or keeps trying to, for ever, at most a second apart); resolves once the first attempt ends. */
export async function connectRedis(url: string, log: Pick<Log, 'warn'>): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    enableOfflineQueue: false,
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
