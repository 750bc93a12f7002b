/**
 * FailoverRateLimitStore as a unit: a scripted shared store stands for Redis (the store is our own
 * interface; Redis itself is exercised in test/integration), the real memory store is the fallback.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { FailoverRateLimitStore, type SharedRateLimitStore } from './failover-store.js'
import { MemoryRateLimitStore } from './memory-store.js'
import type { Decision } from './store.js'

/** A shared store whose connection goes up and down, and whose calls answer or fail as told. */
class ScriptedSharedStore implements SharedRateLimitStore {
  readonly kind = 'redis'
  readonly windowMs = 60_000
  readonly redis = Object.assign(new EventEmitter(), { status: 'ready' })
  /** What the next calls do: answer with this decision, or fail with this error. */
  answer: Decision | Error = { allowed: true, remaining: 41, resetSeconds: 60 }
  readonly calls: string[] = []
  closed = false

  async take(key: string): Promise<Decision> {
    this.calls.push(key)
    if (this.answer instanceof Error) throw this.answer
    return this.answer
  }

  async close(): Promise<void> {
    this.closed = true
  }

  /** The connection drops (ioredis: 'reconnecting') or comes back ('ready', with its event). */
  connection(status: 'ready' | 'reconnecting'): void {
    this.redis.status = status
    if (status === 'ready') this.redis.emit('ready')
  }
}

function setup() {
  const shared = new ScriptedSharedStore()
  const clock = { now: 0 }
  const memory = new MemoryRateLimitStore({ now: () => clock.now })
  const events: string[] = []
  const store = new FailoverRateLimitStore(shared, memory, {
    log: {
      warn: (fields, message) => events.push(`warn ${message} ${JSON.stringify(fields)}`),
      info: (_fields, message) => events.push(`info ${message}`),
    },
    onDegraded: () => events.push('degraded'),
    onRecovered: () => events.push('recovered'),
  })
  return { shared, memory, store, events }
}

const DEGRADED = 'quota store unavailable: counting requests in this process until Redis is back'
const RECOVERED = 'quota store back: counting requests in Redis again'

describe('FailoverRateLimitStore', () => {
  it("answers with the shared store's decisions while it answers, and counts nothing in memory", async () => {
    const { shared, memory, store, events } = setup()
    expect(await store.take('a', 42)).toEqual({ allowed: true, remaining: 41, resetSeconds: 60 })
    shared.answer = { allowed: false, remaining: 0, resetSeconds: 17 }
    expect(await store.take('a', 42)).toEqual({ allowed: false, remaining: 0, resetSeconds: 17 })
    expect(shared.calls).toEqual(['a', 'a'])
    expect(memory.size).toBe(0)
    expect({ kind: store.kind, degraded: store.degraded, events }).toEqual({
      kind: 'redis',
      degraded: false,
      events: [],
    })
  })

  it('counts in memory when a call fails (a timeout), reporting the switch once however many fail', async () => {
    const { shared, store, events } = setup()
    shared.answer = new Error('Command timed out')
    expect(await store.take('a', 2)).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 })
    expect(await store.take('a', 2)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 })
    // The memory window is exact too: the limit holds while Redis is away.
    expect(await store.take('a', 2)).toEqual({ allowed: false, remaining: 0, resetSeconds: 60 })
    expect(shared.calls).toEqual(['a', 'a', 'a']) // a timeout does not mean the connection is down: each request tries
    expect(events).toEqual(['degraded', `warn ${DEGRADED} {"reason":"Command timed out"}`])
    expect({ kind: store.kind, degraded: store.degraded }).toEqual({
      kind: 'memory (redis unavailable)',
      degraded: true,
    })
  })

  it('does not send a request to a connection known to be down, and answers at once from memory', () => {
    const { shared, store, events } = setup()
    shared.connection('reconnecting')
    // Synchronous: no promise, so no request waits for Redis at all.
    expect(store.take('a', 5)).toEqual({ allowed: true, remaining: 4, resetSeconds: 60 })
    expect(store.take('b', 5)).toEqual({ allowed: true, remaining: 4, resetSeconds: 60 })
    expect(shared.calls).toEqual([])
    expect(events).toEqual(['degraded', `warn ${DEGRADED} {"reason":"redis connection is reconnecting"}`])
  })

  it('goes back to the shared store when its connection is ready again', async () => {
    const { shared, store, events } = setup()
    shared.connection('reconnecting')
    await store.take('a', 5)
    shared.connection('ready')
    expect(events.slice(2)).toEqual(['recovered', `info ${RECOVERED}`])
    expect(store.degraded).toBe(false)
    expect(await store.take('a', 5)).toEqual({ allowed: true, remaining: 41, resetSeconds: 60 })
    expect(shared.calls).toEqual(['a'])
  })

  it('recovers on the first answer after timeouts, since no ready event follows a timeout', async () => {
    const { shared, store, events } = setup()
    shared.answer = new Error('Command timed out')
    await store.take('a', 5)
    shared.answer = { allowed: true, remaining: 3, resetSeconds: 12 }
    expect(await store.take('a', 5)).toEqual({ allowed: true, remaining: 3, resetSeconds: 12 })
    expect(events).toEqual([
      'degraded',
      `warn ${DEGRADED} {"reason":"Command timed out"}`,
      'recovered',
      `info ${RECOVERED}`,
    ])
    // A ready event while already recovered reports nothing more.
    shared.connection('ready')
    expect(events).toHaveLength(4)
  })

  it('reports each outage: down, back, down again', async () => {
    const { shared, store, events } = setup()
    for (let round = 0; round < 2; round++) {
      shared.connection('reconnecting')
      await store.take('a', 100)
      shared.connection('ready')
      await store.take('a', 100)
    }
    expect(events.filter((e) => e === 'degraded' || e === 'recovered')).toEqual([
      'degraded',
      'recovered',
      'degraded',
      'recovered',
    ])
  })

  it('refuses stores of different windows, and closes both', async () => {
    const shared = new ScriptedSharedStore()
    const log = { warn: () => undefined, info: () => undefined }
    expect(
      () => new FailoverRateLimitStore(shared, new MemoryRateLimitStore({ windowMs: 30_000 }), { log }),
    ).toThrow('quota: the Redis and memory stores must share one window')
    const memory = new MemoryRateLimitStore()
    memory.take('a', 1)
    const store = new FailoverRateLimitStore(shared, memory, { log })
    await store.close()
    expect({ shared: shared.closed, memory: memory.size }).toEqual({ shared: true, memory: 0 })
  })
})
