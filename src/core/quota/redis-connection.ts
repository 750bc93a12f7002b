/** The quota's Redis client: built so that no request ever waits for Redis longer than a few ms. */
import type { Redis } from 'ioredis'
import type { Log } from '../log.js'

/** A Redis client that never makes a request wait: no offline queue, short command timeout, endless reconnects. */
export async function connectRedis(
  url: string,
  commandTimeoutMs: number,
  log: Pick<Log, 'warn'>,
): Promise<Redis> {
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
