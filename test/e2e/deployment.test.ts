/**
 * A real deployment: Debian's nginx, configured as docs/operations.md shows, in front of two
 * replica processes with TRUST_PROXY, PUBLIC_BASE_URL, the Redis quota and PostgreSQL records.
 * Everything is checked through nginx, with clients on distinct loopback addresses (127.0.x.y).
 * Skipped (with a SKIPPED line) where nginx, Redis or PostgreSQL is missing; a failure under CI.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { closeAgents, httpGet } from '../support/http-client.js'
import { documentedConfig, errorLog, nginxBinary, startNginx, type Nginx } from '../support/nginx.js'
import { freePort } from '../support/ports.js'
import { createTestSchema, postgresAvailable, publishRecords, type TestSchema } from '../support/postgres.js'
import { REDIS_URL, redisAvailable } from '../support/services.js'
import { spawnCli, type Spawned } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const binary = nginxBinary()
const available = binary !== undefined && (await postgresAvailable()) && (await redisAvailable())
const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const FIRST = 'fait-643b555e754f953d'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Replica = { spawned: Spawned; url: string }

describe.runIf(available)('two replicas behind nginx', () => {
  let schema: TestSchema
  let nginx: Nginx
  let lb: string
  const replicas: Replica[] = []

  const metric = async (replica: Replica, name: string) => {
    const text = (await httpGet(`${replica.url}/metrics`)).body
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
  }

  beforeAll(async () => {
    schema = await createTestSchema('rr_deploy')
    await publishRecords(schema.url, fixture, { note: 'deployment test' })
    const nginxPort = await freePort()
    lb = `http://127.0.0.1:${nginxPort}`
    const prefix = `test:${randomUUID()}:`
    for (let i = 0; i < 2; i++) {
      const port = await freePort()
      const spawned = spawnCli(['serve'], {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: schema.url,
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_BASE_URL: lb,
        REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        // The exact count needs every check to reach Redis: on a busy test machine a call can take
        // longer than the default 25 ms, and the replica would then count in memory (by design).
        REDIS_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'warn',
      })
      replicas.push({ spawned, url: `http://127.0.0.1:${port}` })
    }
    for (const replica of replicas) {
      for (let ready = false; !ready; await sleep(50)) {
        if (replica.spawned.child.exitCode !== null)
          throw new Error(`replica exited: ${replica.spawned.stderr()}${replica.spawned.stdout()}`)
        ready = (await httpGet(`${replica.url}/readyz`).catch(() => undefined))?.status === 200
      }
    }
    nginx = await startNginx(
      binary!,
      documentedConfig(nginxPort, [
        Number(new URL(replicas[0]!.url).port),
        Number(new URL(replicas[1]!.url).port),
      ]),
    )
  }, 60_000)

  afterAll(async () => {
    closeAgents()
    for (const { spawned } of replicas) if (spawned.child.exitCode === null) spawned.child.kill('SIGTERM')
    await Promise.all(replicas.map((r) => r.spawned.exited))
    await nginx?.stop()
    await schema?.drop()
  }, 30_000)

  it('redirects to the live read on the public address, not a replica', async () => {
    const res = await httpGet(`${lb}/api/v1/facts?q=vitesse`, { from: '127.0.0.30' })
    expect(res.status).toBe(307)
    expect(res.headers.location).toBe(`${lb}/api/v1/facts?q=vitesse&po_live=1`)
    const followed = await httpGet(res.headers.location as string, { from: '127.0.0.30' })
    expect(followed.status).toBe(200)
    expect(JSON.parse(followed.body).results[0].id).toBe(FIRST)
  })

  it('counts each client once across both replicas: exactly 120 of 200 accepted', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 200; i++)
      statuses.push((await httpGet(`${lb}/api/v1/facts?po_live=1`, { from: '127.0.0.20' })).status)
    const fallbacks = await Promise.all(
      replicas.map((r) => metric(r, 'reference_records_quota_store_fallbacks_total')),
    )
    expect(
      statuses.filter((s) => s === 200),
      `fallbacks to memory: ${fallbacks.join(', ')}`,
    ).toHaveLength(120)
    expect(statuses.filter((s) => s === 429)).toHaveLength(80)
    // Both replicas refused some: the budget is one, shared through Redis, not one per replica.
    const refused = await Promise.all(replicas.map((r) => metric(r, 'reference_records_quota_refused_total')))
    expect(refused[0]! + refused[1]!).toBe(80)
    expect(Math.min(...refused)).toBeGreaterThan(0)
    expect((await httpGet(`${lb}/api/v1/facts?po_live=1`, { from: '127.0.0.21' })).status).toBe(200) // another client
  })

  it('shows a publication through both replicas', async () => {
    await publishRecords(
      schema.url,
      fixture.map((r) => (r.id === FIRST ? { ...r, title: 'Publié pour les deux' } : r)),
    )
    const title = async () =>
      JSON.parse((await httpGet(`${lb}/api/v1/facts/${FIRST}?po_live=1`, { from: '127.0.0.40' })).body).title
    // Each replica reloads on its own notification: the publication reaches them at slightly different
    // times (docs/scale.md, "Freshness"). Once both have it, every answer through nginx shows it.
    for (const replica of replicas)
      await expect
        .poll(async () => JSON.parse((await httpGet(`${replica.url}/readyz`)).body).snapshot, {
          timeout: 5_000,
        })
        .toBe(2)
    for (let i = 0; i < 10; i++) expect(await title()).toBe('Publié pour les deux') // round robin: both replicas answered
  })

  it('loses no request when a replica is stopped with SIGTERM under load', async () => {
    const paths = [
      `/api/v1/facts/${FIRST}?po_live=1`,
      '/api/v1/facts?q=vitesse&po_live=1',
      '/api/v1/?po_live=1',
      '/api/v1/facts.ndjson',
    ]
    const failures: string[] = []
    let done = 0
    let stop = false
    // 8 loops, one request every ~10 ms each; a loop moves to a new client address every 100
    // requests, so no client reaches its quota.
    const loops = Array.from({ length: 8 }, async (_, c) => {
      for (let n = 0; !stop; n++) {
        const path = paths[n % paths.length]!
        try {
          const res = await httpGet(lb + path, { from: `127.0.${1 + Math.floor(n / 100)}.${c + 1}` })
          if (res.status !== 200) failures.push(`${path}: ${res.status} ${res.body.slice(0, 200)}`)
        } catch (err) {
          failures.push(`${path}: ${(err as Error).message}`)
        }
        done++
        await sleep(10)
      }
    })
    while (done < 150) await sleep(10)
    const [stopped] = replicas
    const atKill = done
    stopped!.spawned.child.kill('SIGTERM')
    const exitCode = await stopped!.spawned.exited
    const atExit = done
    await sleep(1_000) // the survivor alone, meanwhile
    stop = true
    await Promise.all(loops)
    console.log(
      `deployment: ${done} requests through nginx, ${atExit - atKill} while the replica drained, ${done - atExit} after it exited`,
    )
    expect(failures, errorLog(nginx)).toEqual([])
    expect(exitCode).toBe(0)
    expect(done - atExit).toBeGreaterThan(10)
  }, 60_000)
})
