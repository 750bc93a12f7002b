import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { REDIS_URL, redisAvailable } from '../support/services.js'
import { FailoverRateLimitStore } from '../../src/core/quota/failover-store.js'
import { MemoryRateLimitStore } from '../../src/core/quota/memory-store.js'
import { RedisRateLimitStore } from '../../src/core/quota/redis-store.js'
import { describeRateLimitStore } from '../../src/core/quota/store.contract.js'

const available = await redisAvailable()
const clients: Redis[] = []
afterAll(() => clients.forEach((c) => c.disconnect()))
const connect = () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: false })
  clients.push(redis)
  return redis
}

/** The connection once it can take commands (the service's connectRedis waits for this too). */
const ready = async (redis: Redis) => {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve))
  return redis
}

describe.runIf(available)('Redis quota store', () => {
  describeRateLimitStore(
    'redis',
    async (clock) =>
      new RedisRateLimitStore(connect(), { keyPrefix: `test:${randomUUID()}:`, now: () => clock.now }),
  )

  // The store the service uses: Redis decides through the failover wrapper, memory counting beside it.
  describeRateLimitStore(
    'failover over redis',
    async (clock) =>
      new FailoverRateLimitStore(
        new RedisRateLimitStore(await ready(connect()), {
          keyPrefix: `test:${randomUUID()}:`,
          now: () => clock.now,
        }),
        new MemoryRateLimitStore({ now: () => clock.now }),
        { log: { warn: () => undefined, info: () => undefined } },
        { outageShare: 0.5, replyTimeoutMs: 250 },
      ),
  )

  it('never lets two racing stores both take the last place', async () => {
    const keyPrefix = `test:${randomUUID()}:`
    const stores = [0, 1, 2, 3].map(() => new RedisRateLimitStore(connect(), { keyPrefix }))
    const decisions = await Promise.all(
      Array.from({ length: 400 }, (_, i) => stores[i % 4]!.take('racer', 120)),
    )
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120)
  })

  it('takes concurrent requests of one client in batches, each with its own remaining count', async () => {
    const store = new RedisRateLimitStore(connect(), { keyPrefix: `test:${randomUUID()}:` })
    const started = Date.now()
    const decisions = await Promise.all(Array.from({ length: 700 }, () => store.take('burst', 500)))
    // The batches read Redis's clock one after the other: under load the last ones may come a second or
    // more after the first place was taken, so the wait is bounded by the time that passed (issue 31).
    const lowest = Math.ceil((60_000 - (Date.now() - started)) / 1000)
    const allowed = decisions.filter((d) => d.allowed)
    expect(allowed).toHaveLength(500)
    expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 500 }, (_, i) => i),
    )
    const refused = decisions.filter((d) => !d.allowed)
    expect(refused.every((d) => d.remaining === 0 && d.resetSeconds <= 60 && d.resetSeconds >= lowest)).toBe(
      true,
    )
  })

  it('records admissions made elsewhere whatever the limit, in calls of at most 256, and probes without writing', async () => {
    const keyPrefix = `test:${randomUUID()}:`
    const redis = connect()
    const store = new RedisRateLimitStore(redis, { keyPrefix })
    await store.take('repaid', 120)
    await store.record('repaid', 300)
    expect(await redis.zcard(`${keyPrefix}quota:repaid`)).toBe(301)
    expect(await store.take('repaid', 120)).toMatchObject({ allowed: false, remaining: 0 })
    await store.probe()
    expect(await redis.keys(`${keyPrefix}*`)).toEqual([`${keyPrefix}quota:repaid`])
  })

  it('uses Redis time by default and lets keys expire with the window', async () => {
    const keyPrefix = `test:${randomUUID()}:`
    const redis = connect()
    const store = new RedisRateLimitStore(redis, { keyPrefix, windowMs: 2_000 })
    expect(await store.take('ttl', 120)).toEqual({ allowed: true, remaining: 119, resetSeconds: 2 })
    const ttl = await redis.pttl(`${keyPrefix}quota:ttl`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(2_000)
  })
})
