/**
 * The shared quota store: one sliding log per client in a Redis sorted set, checked and counted by
 * one Lua script, so replicas racing on the same client can never both take the last place.
 * Time comes from Redis (TIME) unless a clock is injected, so replicas with skewed clocks still
 * agree on which requests are inside the window.
 *
 * Per client, at most one script call is in flight from this process: requests for a client that
 * arrive meanwhile wait and go together in the next call, which takes up to that many places at once.
 * The count stays exact (the script still decides atomically), and a busy client costs a round trip
 * per batch instead of per request — the benchmark showed the service idle 37 % of the time, waiting.
 */
import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { WINDOW_MS, secondsUntilExpiry, type Decision, type RateLimitStore } from './quota.js'

// KEYS[1] = the client's log. ARGV: limit, windowMs, member prefix (unique per call), wanted places, nowMs or "".
// Takes min(wanted, free places). Returns {taken, count before, oldest timestamp in the window (ms), now (ms)}.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[5])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local before = redis.call('ZCARD', KEYS[1])
local taken = math.max(0, math.min(tonumber(ARGV[4]), limit - before))
if taken > 0 then
  local entries = {}
  for i = 1, taken do
    entries[#entries + 1] = now
    entries[#entries + 1] = ARGV[3] .. i
  end
  redis.call('ZADD', KEYS[1], unpack(entries))
  redis.call('PEXPIRE', KEYS[1], window)
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {taken, before, tonumber(oldest) or now, now}
`

type TakeReply = [number, number, number, number]
type RedisWithTake = Redis & {
  rateLimitTake(
    key: string,
    limit: number,
    windowMs: number,
    member: string,
    wanted: number,
    now: string,
  ): Promise<TakeReply>
}
/** Most places one call takes; also keeps the script's ZADD arguments well under Lua's unpack limit. */
const MAX_BATCH = 256
/** A limit no window reaches: `record` takes every place it asks for. */
const UNLIMITED = 1_000_000_000

type Waiter = { resolve: (d: Decision) => void; reject: (e: unknown) => void }
type Batch = { limit: number; waiters: Waiter[] }

export type RedisStoreOptions = {
  /** Length of the rolling window, in ms. Default 60 000. */
  windowMs?: number
  /** Prefix of every key this store writes. Default "reference-records:". */
  keyPrefix?: string
  /** Clock in ms, for tests; default: Redis's own clock (TIME), shared by every replica. */
  now?: () => number
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis'
  readonly windowMs: number
  readonly #redis: RedisWithTake
  readonly #prefix: string
  // Members of a sorted set must be unique: this process's random tag, a call counter, an index.
  readonly #tag = randomBytes(6).toString('base64url') + ':'
  #sequence = 0
  readonly #now: (() => number) | undefined
  /** Per client key: requests waiting for the call in flight to return (absent: no call in flight). */
  readonly #queued = new Map<string, Batch>()

  constructor(redis: Redis, options: RedisStoreOptions = {}) {
    redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE_SCRIPT })
    this.#redis = redis as RedisWithTake
    this.windowMs = options.windowMs ?? WINDOW_MS
    this.#prefix = `${options.keyPrefix ?? 'reference-records:'}quota:`
    this.#now = options.now
  }

  get redis(): Redis {
    return this.#redis
  }

  take(key: string, limit: number): Promise<Decision> {
    return new Promise<Decision>((resolve, reject) => {
      const waiting = this.#queued.get(key)
      if (waiting !== undefined) return void waiting.waiters.push({ resolve, reject })
      this.#queued.set(key, { limit, waiters: [] })
      this.#send(key, { limit, waiters: [{ resolve, reject }] })
    })
  }

  /** Sends one call for a batch; when it returns, sends the requests that queued meanwhile, if any. */
  #send(key: string, batch: Batch): void {
    const member = `${this.#tag}${(this.#sequence++).toString(36)}:`
    const now = this.#now === undefined ? '' : String(this.#now())
    this.#redis
      .rateLimitTake(this.#prefix + key, batch.limit, this.windowMs, member, batch.waiters.length, now)
      .then(
        ([taken, before, oldest, at]) => {
          const resetSeconds = secondsUntilExpiry(oldest, at, this.windowMs)
          batch.waiters.forEach((w, i) =>
            w.resolve(
              i < taken
                ? { allowed: true, remaining: batch.limit - (before + i + 1), resetSeconds }
                : { allowed: false, remaining: 0, resetSeconds },
            ),
          )
        },
        (err: unknown) => batch.waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        const next = this.#queued.get(key)!
        if (next.waiters.length === 0) return void this.#queued.delete(key)
        this.#queued.set(key, { ...next, waiters: next.waiters.slice(MAX_BATCH) })
        this.#send(key, { ...next, waiters: next.waiters.slice(0, MAX_BATCH) })
      })
  }

  /**
   * Counts `count` requests for `key` that were admitted elsewhere (from memory, during an outage),
   * at Redis's present time and whatever the limit, so that the window holds them from now on.
   */
  async record(key: string, count: number): Promise<void> {
    for (let left = count; left > 0; left -= MAX_BATCH) {
      const member = `${this.#tag}${(this.#sequence++).toString(36)}:`
      await this.#redis.rateLimitTake(
        this.#prefix + key,
        UNLIMITED,
        this.windowMs,
        member,
        Math.min(left, MAX_BATCH),
        '',
      )
    }
  }

  /**
   * One cheap call of the same script, on a key no client has, taking nothing and writing nothing:
   * resolves when Redis runs the quota's script again, to end an outage on evidence.
   */
  async probe(): Promise<void> {
    await this.#redis.rateLimitTake(`${this.#prefix}~probe`, 0, this.windowMs, this.#tag, 0, '')
  }

  async close(): Promise<void> {
    this.#redis.disconnect()
  }
}
