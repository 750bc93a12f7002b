/**
 * The shared quota store: one sliding log per client in a Redis sorted set, checked and counted by
 * one Lua script, so replicas racing on the same client can never both take the last place.
 * Time comes from Redis (TIME) unless a clock is injected, so replicas with skewed clocks still
 * agree on which requests are inside the window.
 */
import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { secondsUntilExpiry, type Decision, type RateLimitStore } from './store.js'

// KEYS[1] = the client's log. ARGV: limit, windowMs, member (unique per request), nowMs or "".
// Returns {allowed (0|1), count after, oldest timestamp in the window (ms), now (ms)}.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {allowed, count, tonumber(oldest) or now, now}
`

type TakeReply = [number, number, number, number]
type RedisWithTake = Redis & { rateLimitTake(key: string, limit: number, windowMs: number, member: string, now: string): Promise<TakeReply> }

export type RedisStoreOptions = {
  /** Prefix of every key this store writes. Default "reference-records:". */
  keyPrefix?: string
  /** Clock in ms, for tests; default: Redis's own clock (TIME), shared by every replica. */
  now?: () => number
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis'
  readonly #redis: RedisWithTake
  readonly #prefix: string
  // Members of a sorted set must be unique: this process's random tag and a counter.
  readonly #tag = randomBytes(6).toString('base64url') + ':'
  #sequence = 0
  readonly #now: (() => number) | undefined

  constructor(redis: Redis, options: RedisStoreOptions = {}) {
    redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE_SCRIPT })
    this.#redis = redis as RedisWithTake
    this.#prefix = `${options.keyPrefix ?? 'reference-records:'}quota:`
    this.#now = options.now
  }

  get redis(): Redis {
    return this.#redis
  }

  async take(key: string, limit: number, windowMs: number): Promise<Decision> {
    const now = this.#now === undefined ? '' : String(this.#now())
    const member = this.#tag + (this.#sequence++).toString(36)
    const [allowed, count, oldest, at] = await this.#redis.rateLimitTake(this.#prefix + key, limit, windowMs, member, now)
    const resetSeconds = secondsUntilExpiry(oldest, at, windowMs)
    return { allowed: allowed === 1, remaining: allowed === 1 ? limit - count : 0, resetSeconds }
  }

  async close(): Promise<void> {
    this.#redis.disconnect()
  }
}
