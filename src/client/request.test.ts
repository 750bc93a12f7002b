/** Retries of RecordsClient (docs/spec.md §7), over real HTTP against a scripted server. */
import { describe, expect, it, vi } from 'vitest'
import { apiError, json, scriptedClient, useScriptedServers } from '../../test/support/scripted-server.js'
import { RecordsClient } from './client.js'

const scripted = useScriptedServers()

const CATALOGUE = 'GET /api/v1/?po_live=1'
const tooMany = (retryAfter?: string) =>
  apiError(
    429,
    'rate_limited',
    'Too many requests',
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  )

describe('retries after 429', () => {
  it('waits the Retry-After seconds, then succeeds', async () => {
    const server = await scripted(tooMany('2'), json({ name: 'ok' }))
    const { client, waits, retries } = scriptedClient(server)
    await expect(client.catalogue()).resolves.toEqual({ name: 'ok' })
    expect(waits).toEqual([2000])
    expect(retries).toEqual([
      { attempt: 1, status: 429, waitMs: 2000, url: `${server.url}/api/v1/?po_live=1` },
    ])
    expect(server.log).toEqual([CATALOGUE, CATALOGUE])
  })

  it('waits on a real timer of the Retry-After by default (no sleep given): the retry goes when it fires', async () => {
    const server = await scripted(tooMany('2'), json({ name: 'ok' }))
    // Only the timers are faked: the sockets stay real. The default sleep's timer is then ours to move.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const timers = vi.spyOn(globalThis, 'setTimeout')
    try {
      let planned!: () => void
      const retrying = new Promise<void>((resolve) => (planned = resolve))
      const client = new RecordsClient({
        baseUrl: `${server.url}/api/v1`,
        mode: 'script',
        onRetry: () => planned(),
      })
      const answer = client.catalogue()
      await retrying // the sleep starts right after onRetry returns
      expect(timers.mock.calls.map(([, ms]) => ms)).toContain(2_000)
      expect(server.log).toEqual([CATALOGUE])
      await vi.advanceTimersByTimeAsync(2_000)
      await expect(answer).resolves.toEqual({ name: 'ok' })
      expect(server.log).toEqual([CATALOGUE, CATALOGUE])
    } finally {
      timers.mockRestore() // before the real timers come back, so the fake one is not put back by it
      vi.useRealTimers()
    }
  })

  it('gives up after 3 retries with a RateLimitError', async () => {
    const server = await scripted(tooMany('1'), tooMany('1'), tooMany('1'), tooMany('1'), json({}))
    const { client, waits } = scriptedClient(server)
    const error = client.catalogue()
    await expect(error).rejects.toMatchObject({
      name: 'RateLimitError',
      status: 429,
      code: 'rate_limited',
      retryAfterMs: 1000,
    })
    expect(waits).toEqual([1000, 1000, 1000])
    expect(server.log).toEqual([CATALOGUE, CATALOGUE, CATALOGUE, CATALOGUE])
  })

  it('stops at once when asked to wait more than a minute', async () => {
    const server = await scripted(tooMany('61'), json({}))
    const { client, waits } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({
      name: 'RateLimitError',
      retryAfterMs: 61_000,
      message: 'Too many requests',
    })
    expect(waits).toEqual([])
    expect(server.log).toEqual([CATALOGUE])
  })

  it.each([
    ['absent', undefined],
    ['garbage', 'soon'],
  ])('backs off exponentially in script mode when Retry-After is %s', async (_, header) => {
    const server = await scripted(tooMany(header), tooMany(header), tooMany(header), json({}))
    const { client, waits } = scriptedClient(server)
    await client.catalogue()
    expect(waits).toEqual([500, 1000, 2000])
    expect(server.log).toHaveLength(4)
  })

  it('keeps the back-off within 25 % jitter', async () => {
    const server = await scripted(tooMany(), tooMany(), json({}))
    const { client, waits } = scriptedClient(server, { random: () => 0.5 })
    await client.catalogue()
    expect(waits).toEqual([438, 875])
  })

  it.each([
    ['absent', undefined],
    ['garbage', 'in a while'],
  ])('waits a minute in browser mode when Retry-After is %s', async (_, header) => {
    const server = await scripted(tooMany(header), json({}))
    const { client, waits } = scriptedClient(server, { mode: 'browser' })
    await client.catalogue()
    expect(waits).toEqual([60_000])
  })

  it('takes a per-call maxRetries', async () => {
    const server = await scripted(tooMany('1'), json({}))
    const { client } = scriptedClient(server)
    await expect(client.catalogue({ maxRetries: 0 })).rejects.toMatchObject({ name: 'RateLimitError' })
    expect(server.log).toEqual([CATALOGUE])
  })
})

describe('retries after 503 and connection errors', () => {
  it('retries a 503 as it does a 429', async () => {
    const server = await scripted(
      apiError(503, 'unavailable', 'No records are loaded yet', { 'retry-after': '5' }),
      json({ name: 'ok' }),
    )
    const { client, waits, retries } = scriptedClient(server)
    await expect(client.catalogue()).resolves.toEqual({ name: 'ok' })
    expect(waits).toEqual([5000])
    expect(retries.map((r) => r.status)).toEqual([503])
    expect(server.log).toEqual([CATALOGUE, CATALOGUE])
  })

  it('throws an UnavailableError when 503 persists', async () => {
    const unavailable = apiError(503, 'unavailable', 'Shedding load', { 'retry-after': '1' })
    const server = await scripted(unavailable, unavailable, unavailable, unavailable)
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({
      name: 'UnavailableError',
      code: 'unavailable',
      message: 'Shedding load',
    })
    expect(server.log).toHaveLength(4)
  })

  it('retries a refused connection with back-off, then throws RecordsConnectionError', async () => {
    const server = await scripted()
    await server.close()
    const { client, waits, retries } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({ name: 'RecordsConnectionError', status: 0 })
    expect(waits).toEqual([500, 1000, 2000])
    expect(retries.map((r) => r.status)).toEqual([0, 0, 0])
  })

  it('does not retry a connection error in browser mode', async () => {
    const server = await scripted()
    await server.close()
    const { client, waits } = scriptedClient(server, { mode: 'browser' })
    await expect(client.catalogue()).rejects.toMatchObject({ name: 'RecordsConnectionError' })
    expect(waits).toEqual([])
  })
})

describe('abort', () => {
  it('rejects promptly with the reason when aborted during a wait', async () => {
    const server = await scripted(tooMany('30'), json({}))
    const client = new RecordsClient({ baseUrl: `${server.url}/api/v1`, mode: 'script' })
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    const started = performance.now()
    const reading = client.catalogue({ signal: controller.signal })
    setTimeout(() => controller.abort(reason), 100)
    await expect(reading).rejects.toBe(reason)
    // Rather than after the 30 s wait: a third of it is room for a busy machine.
    expect(performance.now() - started).toBeLessThan(30_000 / 3)
    expect(server.log).toEqual([CATALOGUE])
  })

  it("honours the client's own signal, with an AbortError by default", async () => {
    const server = await scripted(tooMany('30'))
    const controller = new AbortController()
    const client = new RecordsClient({
      baseUrl: `${server.url}/api/v1`,
      signal: controller.signal,
      mode: 'script',
    })
    const reading = client.catalogue()
    setTimeout(() => controller.abort(), 50)
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('rejects with the reason while the request is in flight, without retrying', async () => {
    const server = await scripted({ ...json({}), delayMs: 2000 })
    const { client, waits } = scriptedClient(server)
    await expect(client.catalogue({ signal: AbortSignal.timeout(50) })).rejects.toMatchObject({
      name: 'TimeoutError',
    })
    expect(waits).toEqual([])
  })
})
