/**
 * FailoverRateLimitStore as a unit, on a clock driven by hand: a scripted shared store stands for
 * Redis (the store is our own interface; Redis itself is exercised in test/integration), whose
 * calls stay unanswered until the test answers them; the real memory store is the fallback.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  DEGRADED_MESSAGE,
  FailoverRateLimitStore,
  RECOVERED_MESSAGE,
  type SharedRateLimitStore,
} from './failover-store.js'
import { ManualClock, settled } from './manual-clock.js'
import { MemoryRateLimitStore } from './memory-store.js'
import type { Decision } from './quota.js'

type Pending = { key: string; answer(d?: Decision): void; fail(e: Error): void }

/** A shared store whose calls wait for the test; its connection goes up and down as told. */
class ScriptedSharedStore implements SharedRateLimitStore {
  readonly kind = 'redis'
  readonly windowMs = 60_000
  readonly redis = Object.assign(new EventEmitter(), {
    status: 'ready',
    reconnects: 0,
    disconnect(reconnect?: boolean) {
      if (reconnect) this.reconnects++
    },
  })
  readonly pending: Pending[] = []
  readonly probes: Pending[] = []
  /** What `record` was asked to write: admissions from memory, paid back. */
  readonly recorded: string[] = []
  closed = false

  async record(key: string, count: number): Promise<void> {
    this.recorded.push(`${key} ${count}`)
  }

  take(key: string): Promise<Decision> {
    return new Promise((resolve, reject) =>
      this.pending.push({
        key,
        answer: (d = { allowed: true, remaining: 41, resetSeconds: 60 }) => resolve(d),
        fail: reject,
      }),
    )
  }

  probe(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.probes.push({ key: '~probe', answer: () => resolve(), fail: reject }),
    )
  }

  async close(): Promise<void> {
    this.closed = true
  }

  connection(status: 'ready' | 'reconnecting'): void {
    this.redis.status = status
    if (status === 'ready') this.redis.emit('ready')
  }
}

function setup(options: { status?: string; share?: number } = {}) {
  const shared = new ScriptedSharedStore()
  shared.redis.status = options.status ?? 'ready'
  const clock = new ManualClock()
  const memory = new MemoryRateLimitStore({ now: () => clock.now() })
  const events: string[] = []
  const store = new FailoverRateLimitStore(
    shared,
    memory,
    {
      log: {
        warn: (fields, message) => events.push(`warn ${message} ${JSON.stringify(fields)}`),
        info: (_fields, message) => events.push(`info ${message}`),
      },
      onFailure: (reason) => events.push(`failure ${reason}`),
      onDegraded: () => events.push('degraded'),
      onRecovered: () => events.push('recovered'),
    },
    { outageShare: options.share ?? 0.5, replyTimeoutMs: 250, clock },
  )
  /** Starts a take; `decision()` is what it decided, or undefined while it waits. */
  const take = (key: string, limit: number) => {
    let decision: Decision | undefined
    void Promise.resolve(store.take(key, limit)).then((d) => (decision = d))
    return { decision: () => decision }
  }
  return { shared, clock, memory, store, events, take }
}

const transitions = (events: string[]) => events.filter((e) => e === 'degraded' || e === 'recovered')

/** Three calls that go unanswered through the timeout on a free loop: the outage is declared. */
async function declareByTimeouts(s: ReturnType<typeof setup>) {
  for (let i = 0; i < 3; i++) s.take(`lost-${i}`, 60)
  await s.clock.run(300)
}

describe('FailoverRateLimitStore', () => {
  it("answers with the shared store's decisions, and counts each admitted request in memory too", async () => {
    const { shared, memory, store, events } = setup()
    const first = store.take('a', 42)
    shared.pending[0]!.answer()
    expect(await first).toEqual({ allowed: true, remaining: 41, resetSeconds: 60 })
    const second = store.take('a', 42)
    shared.pending[1]!.answer({ allowed: false, remaining: 0, resetSeconds: 17 })
    expect(await second).toEqual({ allowed: false, remaining: 0, resetSeconds: 17 })
    expect(memory.size).toBe(1) // the admitted one, so that an outage starts from it
    expect({ kind: store.kind, degraded: store.degraded, events }).toEqual({
      kind: 'redis',
      degraded: false,
      events: [],
    })
  })

  it('waits for a slow answer: no failure, whatever the wait on a busy loop', async () => {
    const { shared, clock, take, events } = setup()
    const slow = take('a', 60)
    await clock.run(240) // slow, but within the timeout on a free loop
    await clock.block(5_000) // and then a loop busy for 5 s while the answer sat in the socket
    expect(slow.decision()).toBeUndefined() // still waiting: no fallback admit on slowness
    shared.pending[0]!.answer({ allowed: false, remaining: 0, resetSeconds: 9 })
    await settled()
    expect(slow.decision()).toEqual({ allowed: false, remaining: 0, resetSeconds: 9 })
    expect(events).toEqual([])
  })

  it('a saturated loop never declares an outage while Redis answers within a turn', async () => {
    const { shared, clock, store, events } = setup()
    for (let turn = 0; turn < 200; turn++) {
      for (let c = 0; c < 5; c++) void store.take(`client-${c}`, 60)
      await clock.block(300) // each turn of the loop is late; every answer arrives in the next read
      for (const call of shared.pending.splice(0)) call.answer()
      await settled()
    }
    expect(events).toEqual([])
    expect(store.degraded).toBe(false)
  })

  it('decides an unanswered request from memory within the share, and declares an outage after 3 in a row', async () => {
    const s = setup()
    const { shared, clock, take, events, store } = s
    const first = take('a', 60)
    await clock.run(299)
    expect(first.decision()).toBeUndefined()
    await clock.run(1)
    expect(first.decision()).toEqual({ allowed: true, remaining: 29, resetSeconds: 60 }) // share: 30 of 60
    expect(events).toEqual(['failure unanswered'])
    take('a', 60)
    take('b', 60)
    await clock.run(300)
    expect(transitions(events)).toEqual(['degraded'])
    expect(events).toContain(
      `warn ${DEGRADED_MESSAGE} {"reason":"no answer from redis","failures":3,"outageShare":0.5}`,
    )
    expect(shared.redis.reconnects).toBe(1) // a silent connection is dropped and made again
    // Unavailable: decided at once, in memory, without a call.
    const calls = shared.pending.length
    expect(store.take('c', 60)).toEqual({ allowed: true, remaining: 29, resetSeconds: 60 })
    expect(shared.pending).toHaveLength(calls)
    expect({ kind: store.kind, degraded: store.degraded }).toEqual({
      kind: 'memory (redis unavailable)',
      degraded: true,
    })
  })

  it('needs consecutive failures: an answer in between starts the count again', async () => {
    const { shared, clock, take, events } = setup()
    for (let round = 0; round < 3; round++) {
      take('a', 60)
      take('b', 60)
      await clock.run(300)
      take('c', 60)
      shared.pending.at(-1)!.answer()
      await settled()
    }
    expect(events.filter((e) => e === 'failure unanswered')).toHaveLength(6)
    expect(transitions(events)).toEqual([])
    // What memory admitted after each lost call went to Redis with the next answer.
    expect(shared.recorded).toEqual(['a 1', 'b 1', 'a 1', 'b 1', 'a 1', 'b 1'])
  })

  it('counts refused calls and a connection that is down as failures', async () => {
    const { shared, store, events } = setup()
    const refused = store.take('a', 10)
    shared.pending[0]!.fail(new Error('OOM command not allowed'))
    expect(await refused).toEqual({ allowed: true, remaining: 4, resetSeconds: 60 })
    shared.connection('reconnecting')
    // Synchronous: no request waits for a reconnect.
    expect(store.take('a', 10)).toEqual({ allowed: true, remaining: 3, resetSeconds: 60 })
    expect(store.take('b', 10)).toEqual({ allowed: true, remaining: 4, resetSeconds: 60 })
    expect(events).toEqual([
      'failure refused',
      'failure disconnected',
      'failure disconnected',
      'degraded',
      `warn ${DEGRADED_MESSAGE} {"reason":"redis connection is reconnecting","failures":3,"outageShare":0.5}`,
    ])
    expect(shared.redis.reconnects).toBe(0) // ioredis is already reconnecting
  })

  it('admits at most the share per client while unavailable, counting what Redis admitted here before', async () => {
    const s = setup({ share: 0.25 })
    const { shared, store } = s
    // 10 admitted through Redis by this process before the outage
    for (let i = 0; i < 10; i++) {
      const d = store.take('a', 100)
      shared.pending.at(-1)!.answer()
      await d
    }
    await declareByTimeouts(s)
    const during = Array.from({ length: 40 }, () => store.take('a', 100) as Decision)
    expect(during.filter((d) => d.allowed)).toHaveLength(15) // 25 in all here, a quarter of 100
    expect(during.at(-1)).toMatchObject({ allowed: false, remaining: 0 })
  })

  it('probes while unavailable and goes back to Redis when it answers, saying so', async () => {
    const s = setup()
    const { shared, clock, store, events } = s
    await declareByTimeouts(s)
    for (const call of shared.pending.splice(0))
      call.fail(new Error('Reached the max retries per request limit'))
    await settled()
    expect(shared.probes).toHaveLength(0)
    await clock.run(1_000)
    expect(shared.probes).toHaveLength(1)
    // A probe that gets no answer either: still unavailable, and probed again later.
    await clock.run(1_000)
    expect(store.degraded).toBe(true)
    expect(shared.probes).toHaveLength(2)
    shared.probes[1]!.answer()
    await settled()
    expect(transitions(events)).toEqual(['degraded', 'recovered'])
    expect(events.at(-1)).toBe(`info ${RECOVERED_MESSAGE}`)
    const back = store.take('a', 60)
    shared.pending.at(-1)!.answer({ allowed: true, remaining: 7, resetSeconds: 3 })
    expect(await back).toEqual({ allowed: true, remaining: 7, resetSeconds: 3 })
    expect(clock.timers).toBe(0) // no probing, no watch, once back and idle
  })

  it('writes to Redis, once back, what memory admitted within the window, so the next minute holds it', async () => {
    const s = setup({ share: 0.5 })
    const { shared, clock, store } = s
    await declareByTimeouts(s) // lost-0..2, each admitted from memory
    void store.take('old', 10)
    await clock.run(61_000) // 'old' and the lost ones leave the window (counted by the second)
    for (let i = 0; i < 8; i++) void store.take('a', 10) // 5 admitted (the share), 3 refused
    void store.take('b', 10)
    shared.connection('ready')
    shared.probes.at(-1)!.answer()
    await settled()
    expect(store.degraded).toBe(false)
    expect(shared.recorded).toEqual(['a 5', 'b 1'])
    // Paid once: the next outage starts owing nothing.
    await declareByTimeouts(s)
    shared.connection('ready')
    shared.probes.at(-1)!.answer()
    await settled()
    expect(shared.recorded).toEqual(['a 5', 'b 1', 'lost-0 1', 'lost-1 1', 'lost-2 1'])
  })

  it('probes at once when the connection is ready again, and not while it is down', async () => {
    const { shared, clock, store, events } = setup({ status: 'reconnecting' })
    // Not connected at start: unavailable from the first request on, said once.
    expect(transitions(events)).toEqual(['degraded'])
    expect(store.take('a', 5)).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 })
    await clock.run(5_000)
    expect(shared.probes).toHaveLength(0)
    shared.connection('ready')
    expect(shared.probes).toHaveLength(1)
    shared.probes[0]!.answer()
    await settled()
    expect(transitions(events)).toEqual(['degraded', 'recovered'])
  })

  it('does not take a first connection still under way for an outage', async () => {
    const { shared, store, events } = setup({ status: 'connecting' })
    expect(store.degraded).toBe(false)
    shared.connection('ready')
    const first = store.take('a', 10)
    shared.pending[0]!.answer()
    expect(await first).toEqual({ allowed: true, remaining: 41, resetSeconds: 60 })
    expect(events).toEqual([])
  })

  it('reports each outage: down, back, down again', async () => {
    const s = setup()
    for (let round = 0; round < 2; round++) {
      await declareByTimeouts(s)
      s.shared.connection('ready')
      s.shared.probes.at(-1)!.answer()
      await settled()
    }
    expect(transitions(s.events)).toEqual(['degraded', 'recovered', 'degraded', 'recovered'])
  })

  it('refuses stores of different windows and a share outside (0, 1], and closes both', async () => {
    const shared = new ScriptedSharedStore()
    const log = { warn: () => undefined, info: () => undefined }
    const options = { outageShare: 0.5, replyTimeoutMs: 250 }
    expect(
      () =>
        new FailoverRateLimitStore(shared, new MemoryRateLimitStore({ windowMs: 30_000 }), { log }, options),
    ).toThrow('quota: the Redis and memory stores must share one window')
    for (const outageShare of [0, 1.5, Number.NaN])
      expect(
        () =>
          new FailoverRateLimitStore(
            shared,
            new MemoryRateLimitStore(),
            { log },
            { ...options, outageShare },
          ),
      ).toThrow('quota: the outage share must be more than 0 and at most 1')
    const memory = new MemoryRateLimitStore()
    memory.take('a', 1)
    const store = new FailoverRateLimitStore(shared, memory, { log }, options)
    expect(store.shareOf(1)).toBe(1) // never less than one request
    await store.close()
    expect({ shared: shared.closed, memory: memory.size }).toEqual({ shared: true, memory: 0 })
  })
})
