/**
 * Freshness: with two replicas (real `serve` processes) reading PostgreSQL, the time from a
 * publication's commit to the first response showing the change on both replicas. Prints p50, p99
 * and max over the publications (docs/scale.md quotes them). The goal is p99 ≤ 1 s on the sample
 * corpus, but timings on a shared machine are measured, not asserted (issue 43: a busy machine
 * printed a p99 of 5.2–5.7 s). What the test asserts is the behaviour: every publication is seen by
 * notification, not by the periodic check (DEFAULT_WATCHER_TIMING.checkEveryMs, 30 s) that catches
 * a notification lost. Stated against that period: a p99 under a third of it. A replica that missed
 * the notifications would see each publication at a uniformly random point of the period, so 20
 * publications all under a third of it would happen by chance once in 3^20.
 *
 * Larger corpora: FRESHNESS_CORPUS=/tmp/records-100k.ndjson FRESHNESS_PUBLICATIONS=10 npx vitest run test/e2e/freshness.test.ts
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { migrate } from '../../src/core/records/postgres/migrations.js'
import { DEFAULT_WATCHER_TIMING } from '../../src/core/records/postgres/publication-watcher.js'
import {
  hashesOf,
  planAgainstCurrent,
  prepareSnapshot,
  publishSnapshot,
} from '../../src/core/records/postgres/publisher.js'
import type { Fact } from '../../src/core/records/record.js'
import { connect, createTestSchema, postgresAvailable, type TestSchema } from '../support/postgres.js'
import { freePort } from '../support/ports.js'
import { spawnCli, type Spawned } from '../support/spawn-service.js'

const available = await postgresAvailable()
const CORPUS =
  process.env.FRESHNESS_CORPUS ?? fileURLToPath(new URL('../../data/records.json', import.meta.url))
const PUBLICATIONS = Number(process.env.FRESHNESS_PUBLICATIONS ?? 20)
const LARGE = process.env.FRESHNESS_CORPUS !== undefined
/** What the test asserts on the sample, and says in its name: a third of the periodic check's period. */
const P99_BOUND_MS = DEFAULT_WATCHER_TIMING.checkEveryMs / 3

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

let schema: TestSchema
const replicas: { spawned: Spawned; url: string }[] = []
beforeAll(async () => {
  if (!available) return
  schema = await createTestSchema('rr_fresh')
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    const spawned = spawnCli(['serve'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: schema.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ...(LARGE ? { NODE_OPTIONS: '--max-old-space-size=6144' } : {}),
    })
    replicas.push({ spawned, url: `http://127.0.0.1:${port}` })
  }
}, 60_000)
afterAll(async () => {
  for (const { spawned } of replicas) spawned.child.kill('SIGTERM')
  await Promise.all(replicas.map((r) => r.spawned.exited))
  await schema?.drop()
}, 60_000)

/** Polls `url` until `accept` holds for its JSON body; resolves with the time it did (performance.now()). */
async function firstResponseWith(
  url: string,
  accept: (body: any) => boolean,
  deadline: number,
): Promise<number> {
  for (;;) {
    const res = await fetch(url).catch(() => undefined)
    const body = res === undefined ? undefined : await res.json().catch(() => undefined)
    if (res?.ok && accept(body)) return performance.now()
    if (performance.now() > deadline) throw new Error(`${url}: the change was not seen in time`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

it.runIf(available)(
  `shows a publication on both replicas by notification, not by the ${DEFAULT_WATCHER_TIMING.checkEveryMs / 1000} s periodic check (p99 under a third of it over ${PUBLICATIONS} publications)`,
  async () => {
    const records = (await new FileRecordSource(CORPUS).load()).records
    const target = records[0]!
    const client = await connect(schema.url)
    const latencies: number[] = []
    try {
      await migrate(client)
      const publish = async (version: number) => {
        // Everything but the commit is prepared before the clock starts.
        const next = records.map((r) =>
          r === target ? { ...r, title: `${target.title} (publication ${version})` } : r,
        )
        const snapshot = prepareSnapshot(next as Fact[])
        const plan = await planAgainstCurrent(client, hashesOf(snapshot))
        await publishSnapshot(client, snapshot, plan, { keep: 2 })
        return performance.now()
      }
      const seen = (version: number) => (body: any) =>
        body?.title === `${target.title} (publication ${version})`
      const startupDeadline = performance.now() + (LARGE ? 600_000 : 60_000)
      await publish(0)
      await Promise.all(
        replicas.map((r) =>
          firstResponseWith(`${r.url}/api/v1/facts/${target.id}?po_live=1`, seen(0), startupDeadline),
        ),
      )
      for (let version = 1; version <= PUBLICATIONS; version++) {
        const committed = await publish(version)
        const deadline = committed + (LARGE ? 300_000 : 30_000)
        const both = await Promise.all(
          replicas.map((r) =>
            firstResponseWith(`${r.url}/api/v1/facts/${target.id}?po_live=1`, seen(version), deadline),
          ),
        )
        latencies.push(Math.max(...both) - committed)
      }
    } finally {
      await client.end()
    }
    const sorted = [...latencies].sort((a, b) => a - b)
    const figure = (ms: number) => `${ms.toFixed(0)} ms`
    console.log(
      `freshness: ${records.length} records, 2 replicas, ${PUBLICATIONS} publications: commit → first response showing it on both: ` +
        `p50 ${figure(percentile(sorted, 50))}, p99 ${figure(percentile(sorted, 99))}, max ${figure(sorted.at(-1)!)}`,
    )
    if (!LARGE) expect(percentile(sorted, 99)).toBeLessThan(P99_BOUND_MS)
  },
  // 20 publications on a busy machine: a few seconds each, and the replicas' start.
  LARGE ? 3_600_000 : 300_000,
)
