/**
 * Replicas sharing the quota through a real Redis: two server processes, concurrent clients on
 * distinct addresses, event loops kept busy; then a Redis of our own paused, stopped and restarted.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { busyEventLoopEnv, startBusyLoop } from '../support/busy-event-loop.js'
import { closeAgents, httpGet } from '../support/http-client.js'
import { REDIS_URL, redisAvailable } from '../support/services.js'
import { listeningUrl, spawnCli, type Spawned } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const available = await redisAvailable()
const running: Spawned[] = []
afterAll(async () => {
  closeAgents()
  for (const s of running) s.child.kill('SIGTERM')
  await Promise.all(running.map((s) => s.exited))
})

type Replica = { url: string; spawned: Spawned }

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const spawned = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
    RECORDS_FILE: SMALL_FIXTURE,
    LOG_LEVEL: 'info',
    ...env,
  })
  running.push(spawned)
  return { url: await listeningUrl(spawned, 60_000), spawned }
}

const replica = async (env: Record<string, string>) => (await startReplica(env)).url

/** Sends `count` requests from `from`, alternating replicas, `concurrency` at a time; returns the statuses by replica. */
async function hammerEach(
  urls: string[],
  from: string,
  count: number,
  concurrency = 16,
): Promise<number[][]> {
  const statuses: number[][] = urls.map(() => [])
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      const at = i % urls.length
      statuses[at]!.push(await getStatus(`${urls[at]}/api/v1/facts?po_live=1&offset=${i % 7}`, from))
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return statuses
}

/**
 * A GET's status, tried again once if its kept-alive connection was closed under it (the server
 * closes idle ones after 5 s, and on a loaded machine a client can pick one at that moment). A
 * request the server never read was not counted; one it counted and whose answer was lost would
 * show as one 200 missing, never as one too many.
 */
async function getStatus(url: string, from: string): Promise<number> {
  try {
    return (await httpGet(url, { from })).status
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'ECONNRESET' && (err as Error).message !== 'socket hang up') throw err
    return (await httpGet(url, { from })).status
  }
}

const hammer = async (urls: string[], from: string, count: number, concurrency = 16) =>
  (await hammerEach(urls, from, count, concurrency)).flat()

const ok = (statuses: number[]) => statuses.filter((s) => s === 200).length

/** A sample of `/metrics`: `name` exactly, or `name{labels}` when given. */
const metric = async (url: string, name: string) => {
  const text = (await httpGet(`${url}/metrics`)).body
  const escaped = name.replace(/[{}"]/g, (c) => `\\${c}`)
  return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
}

const DEGRADED_LOG = '"msg":"quota store unavailable'
const RECOVERED_LOG = '"msg":"quota store back: counting requests in Redis again"'

// Two replicas to start and a few thousand requests on a loaded two-core machine: room, not a bound.
const SLOW = { timeout: 120_000 }

describe.runIf(available)('quota shared by replicas through Redis', SLOW, () => {
  it('never gives a client more than the limit across two saturated replicas whose event loops are busy', async () => {
    // Default REDIS_TIMEOUT_MS. Each replica's loop is busy 30 ms out of every 40 after its socket
    // reads, so timers fire late with Redis's answers already waiting: before issue 43 that was
    // taken for an outage and each replica admitted a window of its own (61–67 of 60, and more).
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
      RATE_LIMIT_PER_MINUTE: '60',
      ...busyEventLoopEnv(30, 40),
    }
    const replicas = await Promise.all([startReplica(env), startReplica(env)])
    for (const { spawned } of replicas) startBusyLoop(spawned.child)
    const urls = replicas.map((r) => r.url)
    const clients = Array.from({ length: 24 }, (_, i) => `127.0.0.${100 + i}`)
    const results = await Promise.all(clients.map((from) => hammer(urls, from, 100, 4)))
    const admitted = Object.fromEntries(clients.map((from, i) => [from, ok(results[i]!)]))
    expect(admitted).toEqual(Object.fromEntries(clients.map((from) => [from, 60])))
    for (const statuses of results) expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    for (const url of urls) {
      expect(await metric(url, 'reference_records_quota_store_fallbacks_total')).toBe(0)
      expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(0)
    }
  })

  it("starts with Redis unreachable, serving each replica's share from memory, without a 5xx", async () => {
    const { url, spawned } = await startReplica({
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      RATE_LIMIT_PER_MINUTE: '6',
      REDIS_OUTAGE_SHARE: '0.5',
    })
    const statuses = await hammer([url], '127.0.0.24', 8, 4)
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(5)
    expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(1)
    expect(await metric(url, 'reference_records_quota_store_transitions_total{to="unavailable"}')).toBe(1)
    expect(spawned.stdout()).toContain(DEGRADED_LOG)
  })
})

const redisServer = available ? await startRedisServer() : undefined
afterAll(() => redisServer?.stop())

describe.runIf(redisServer !== undefined)('quota when Redis stalls, goes away and comes back', SLOW, () => {
  it('paused for 2 s: degraded, at most the share per replica, then exact again through Redis', async () => {
    const server = redisServer!
    const env = {
      REDIS_URL: `redis://127.0.0.1:${server.port}`,
      REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
      RATE_LIMIT_PER_MINUTE: '10',
      REDIS_OUTAGE_SHARE: '0.5',
    }
    const replicas = await Promise.all([startReplica(env), startReplica(env)])
    const urls = replicas.map((r) => r.url)
    expect(ok(await hammer(urls, '127.0.0.51', 14, 2))).toBe(10)

    const pausedAt = Date.now()
    server.signal('SIGSTOP') // the connection stays open; Redis answers nothing
    try {
      // Requests wait for Redis until their calls go unanswered, then each replica decides alone.
      const during = await hammerEach(urls, '127.0.0.52', 30, 4)
      for (const statuses of during) {
        expect(statuses.every((s) => s === 200 || s === 429)).toBe(true)
        expect(ok(statuses)).toBe(5) // the share: half of 10 on each replica
      }
      for (const { url, spawned } of replicas) {
        expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(1)
        expect(await metric(url, 'reference_records_quota_store_transitions_total{to="unavailable"}')).toBe(1)
        expect(spawned.stdout()).toContain(DEGRADED_LOG)
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 2_000 - (Date.now() - pausedAt))))
    } finally {
      server.signal('SIGCONT')
    }

    for (const { url, spawned } of replicas) {
      await expect.poll(() => metric(url, 'reference_records_quota_store_degraded')).toBe(0)
      expect(await metric(url, 'reference_records_quota_store_transitions_total{to="shared"}')).toBe(1)
      expect(spawned.stdout()).toContain(RECOVERED_LOG)
    }
    // Exact again: one budget for both replicas; and what memory admitted during the pause was
    // written to Redis, so the client served then has nothing left in this window.
    expect(ok(await hammer(urls, '127.0.0.53', 14, 2))).toBe(10)
    expect(ok(await hammer(urls, '127.0.0.52', 6, 2))).toBe(0)
  })

  it('stopped: falls back to each process’s share without a 5xx, then shares again', async () => {
    const server = redisServer!
    const env = {
      REDIS_URL: `redis://127.0.0.1:${server.port}`,
      REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
      RATE_LIMIT_PER_MINUTE: '10',
    }
    const [a, b] = await Promise.all([replica(env), replica(env)])
    // shared: 10 in all across both replicas
    expect(ok(await hammer([a!, b!], '127.0.0.31', 14, 2))).toBe(10)

    await server.stop()
    const during = await hammer([a!, b!], '127.0.0.32', 30, 4)
    expect(during.every((s) => s === 200 || s === 429)).toBe(true)
    // each replica now counts alone, within its share (REDIS_OUTAGE_SHARE, 0.5 by default)
    expect(ok(during)).toBe(10)
    for (const url of [a!, b!]) {
      expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(1)
      expect(await metric(url, 'reference_records_quota_store_fallbacks_total')).toBe(1)
    }

    await server.start()
    for (const url of [a!, b!])
      await expect.poll(() => metric(url, 'reference_records_quota_store_degraded')).toBe(0)
    expect(ok(await hammer([a!, b!], '127.0.0.33', 14, 2))).toBe(10)
  })

  it('starts without a warning when the connection’s first answer comes 100 ms late', async () => {
    const proxy = await startDelayingProxy(redisServer!.port, 100)
    try {
      const { url, spawned } = await startReplica({
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
        RATE_LIMIT_PER_MINUTE: '5',
      })
      // Before issue 43, the 25 ms command timeout also failed the connection's first check (INFO):
      // the "redis connection error" warning every replica logged at start on a busy machine.
      expect(spawned.stdout()).not.toContain('"level":40')
      expect(ok(await hammer([url], '127.0.0.45', 8, 4))).toBe(5) // Redis's count: memory's share would be 2
      expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(0)
    } finally {
      await proxy.close()
    }
  })

  it('waits for a slow Redis instead of taking it for an outage', async () => {
    const proxy = await startDelayingProxy(redisServer!.port, 0)
    const timeoutMs = 5_000
    try {
      const url = await replica({
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
        REDIS_TIMEOUT_MS: String(timeoutMs),
        RATE_LIMIT_PER_MINUTE: '2',
      })
      // Redis's answers are held from now on; they are let go a fifth of the timeout after the
      // first call of these requests reached Redis (an event the proxy sees, not a guess of when).
      const calls = proxy.hold()
      const statuses = Promise.all(
        [1, 2, 3].map(
          async () => (await httpGet(`${url}/api/v1/facts?po_live=1`, { from: '127.0.0.41' })).status,
        ),
      )
      await expect.poll(() => proxy.callsSince(calls)).toBeGreaterThan(0)
      await new Promise((r) => setTimeout(r, timeoutMs / 5))
      proxy.release()
      // Redis decided, once it answered: 2 of 3 (memory, at the default share, would have admitted 1).
      expect((await statuses).sort()).toEqual([200, 200, 429])
      expect(await metric(url, 'reference_records_quota_store_failures_total{reason="unanswered"}')).toBe(0)
      expect(await metric(url, 'reference_records_quota_store_degraded')).toBe(0)
    } finally {
      await proxy.close()
    }
  })
})

/**
 * A TCP proxy to Redis that holds the first answer of each connection (its INFO check) for
 * `delayMs`, and every answer between `hold()` and `release()`. It counts the script calls it passes
 * on (EVALSHA, or EVAL when the script is not cached yet), so a test can wait for one to reach Redis.
 */
async function startDelayingProxy(port: number, delayMs: number) {
  const sockets = new Set<Socket>()
  let calls = 0
  let holding: Promise<void> | undefined
  let release = () => {}
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.on('close', () => sockets.delete(socket))
    }
    client.on('data', (chunk: Buffer) => {
      calls += chunk.toString('latin1').match(/\r\n(EVALSHA|EVAL)\r\n/gi)?.length ?? 0
      upstream.write(chunk)
    })
    // In order: each answer waits behind the one before it, and behind any hold.
    let previous: Promise<unknown> | undefined
    upstream.on('data', (chunk: Buffer) => {
      const held = holding
      previous = (previous ?? new Promise((resolve) => setTimeout(resolve, delayMs)))
        .then(() => held)
        .then(() => client.write(chunk))
    })
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    /** Holds every answer from now until release(); returns the script calls passed on so far. */
    hold: () => {
      holding = new Promise<void>((resolve) => (release = resolve))
      return calls
    },
    release: () => {
      release()
      holding = undefined
    },
    /** Script calls passed on to Redis since `hold()` returned `before`. */
    callsSince: (before: number) => calls - before,
    close: () =>
      new Promise<void>((resolve) => {
        release()
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/** A private redis-server (Debian's binary) that the test may stop and restart on the same port. */
async function startRedisServer() {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--enable-debug-command',
      'local',
    ]
    child = spawn('redis-server', args, { stdio: 'ignore' })
    const failed = await new Promise<boolean>((resolve) => {
      child!.once('error', () => resolve(true))
      const poll = setInterval(() => {
        void httpGet(`http://127.0.0.1:${port}/`)
          .catch((e: NodeJS.ErrnoException) => e.code)
          .then((outcome) => {
            if (outcome === 'ECONNREFUSED') return
            clearInterval(poll)
            resolve(false)
          })
      }, 50)
    })
    if (failed) throw new Error('redis-server could not be started')
  }
  /** SIGSTOP pauses the server with its connections open; SIGCONT resumes it. */
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => child?.kill(name)
  const stop = async () => {
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child!.once('exit', r))
    child.kill('SIGKILL')
    await exited
  }
  try {
    await start()
  } catch (err) {
    if (process.env.CI) throw err
    console.warn(
      'SKIPPED: Redis outage test (no redis-server binary to start; set CI=1 to make this a failure)',
    )
    return undefined
  }
  return { port, start, stop, signal }
}
