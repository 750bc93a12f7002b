/**
 * The Redis the quota case runs against (redis://127.0.0.1:6379, shared with other work on the
 * machine): each run writes under its own key prefix, and deletes exactly those keys at the end.
 */
import { Redis } from 'ioredis'

export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379'

/** A prefix no other run or test uses: letters, digits and colons only, so it is safe in a MATCH glob. */
export function uniqueRedisPrefix(now = Date.now(), random = Math.random()): string {
  return `reference-records-bench:${now.toString(36)}${Math.floor(random * 36 ** 6).toString(36)}:`
}

/** Whether Redis answers PING within a second (the Redis case is skipped with a line otherwise). */
export async function redisAvailable(url = BENCH_REDIS_URL): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  try {
    await redis.connect()
    return (await redis.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    redis.disconnect()
  }
}

/** SCAN + DEL of every key under `prefix`; returns how many were deleted. */
export async function deleteRedisPrefix(prefix: string, url = BENCH_REDIS_URL): Promise<number> {
  if (!/^[A-Za-z0-9:_-]+:$/.test(prefix))
    throw new Error(`bench: refusing to delete Redis keys under "${prefix}"`)
  const redis = new Redis(url, { maxRetriesPerRequest: 1 })
  let deleted = 0
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000)
      if (keys.length > 0) deleted += await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
  return deleted
}
