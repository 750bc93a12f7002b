/**
 * A replica reading PostgreSQL: it starts before anything is published (unavailable, not ready),
 * follows publications, refuses a snapshot that fails validation, and survives losing the database,
 * catching up afterwards with what it missed.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  hashesOf,
  planAgainstCurrent,
  prepareSnapshot,
  publishSnapshot,
} from '../../src/core/records/postgres/publisher.js'
import type { Fact } from '../../src/core/records/record.js'
import {
  POSTGRES_URL,
  connect,
  createTestSchema,
  postgresAvailable,
  publishRecords,
  type TestSchema,
} from '../support/postgres.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const available = await postgresAvailable()
const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const FIRST = 'fait-643b555e754f953d'
const titled = (title: string) => fixture.map((r) => (r.id === FIRST ? { ...r, title } : r))
const metric = async (server: TestServer, name: string) => {
  const match = new RegExp(`^${name}(?:\\{source="postgres"\\})? (\\S+)$`, 'm').exec(
    (await server.raw('/metrics')).text,
  )
  return match === null ? undefined : Number(match[1])
}
const titleOn = async (server: TestServer) =>
  (await server.get(`/api/v1/facts/${FIRST}?po_live=1`)).body?.title

describe.runIf(available)('a replica reading PostgreSQL', () => {
  let schema: TestSchema
  let proxy: TcpProxy
  let replica: TestServer
  let other: TestServer
  beforeAll(async () => {
    schema = await createTestSchema()
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(POSTGRES_URL).port || 5432) })
    const throughProxy = new URL(schema.url)
    throughProxy.port = String(proxy.port)
    replica = await startTestServer({ DATABASE_URL: throughProxy.href })
    other = await startTestServer({ DATABASE_URL: schema.url })
  })
  afterAll(async () => {
    await Promise.all([replica?.close(), other?.close()])
    await proxy?.close()
    await schema?.drop()
  })

  it('starts before anything is published: 503 unavailable with Retry-After, not ready', async () => {
    await expect.poll(() => metric(replica, 'reference_records_records_source_connected')).toBe(1)
    const search = await replica.get('/api/v1/facts?q=vitesse&po_live=1')
    expect(search.status).toBe(503)
    expect(search.headers.get('retry-after')).toBe('5')
    expect(search.body).toEqual({
      error: { code: 'unavailable', message: 'No records are loaded yet; retry shortly' },
    })
    expect((await replica.get('/api/v1/facts.ndjson')).status).toBe(503)
    expect((await replica.get('/api/v1/facts?q=vitesse')).status).toBe(307) // the redirect reads nothing
    expect((await replica.get('/api/v1/openapi.json?po_live=1')).status).toBe(200)
    // MCP reads the same records: refused the same way, in its own (JSON-RPC) error body.
    const mcp = await fetch(`${replica.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_facts', arguments: { q: 'vitesse' } },
      }),
    })
    expect(mcp.status).toBe(503)
    expect(mcp.headers.get('retry-after')).toBe('5')
    expect(await mcp.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        message: 'No records are loaded yet; retry shortly',
        data: { status: 503, code: 'unavailable', retry_after_seconds: 5 },
      },
    })
    const ready = await replica.raw('/readyz')
    expect(ready.status).toBe(503)
    expect(ready.headers.get('retry-after')).toBe('5')
    expect(await metric(replica, 'reference_records_snapshot_id')).toBeUndefined()
  })

  it('serves the first publication on every replica, with equal ETags, and says which snapshot in /readyz and /metrics', async () => {
    const { publication } = await publishRecords(schema.url, fixture, { note: 'first' })
    for (const server of [replica, other]) {
      await expect.poll(async () => (await server.raw('/readyz')).status).toBe(200)
      expect((await server.raw('/readyz')).body).toMatchObject({
        status: 'ready',
        records: fixture.length,
        snapshot: 1,
        publication: 1,
        published_at: publication.publishedAt.toISOString(),
      })
      expect(await metric(server, 'reference_records_snapshot_id')).toBe(1)
      expect(await metric(server, 'reference_records_snapshot_published_timestamp_seconds')).toBe(
        publication.publishedAt.getTime() / 1000,
      )
      expect(await metric(server, 'reference_records_snapshot_age_seconds')).toBeGreaterThanOrEqual(0)
    }
    const etags = await Promise.all(
      [replica, other].map(async (s) =>
        (await s.get('/api/v1/facts?q=alcool%C3%A9mie&po_live=1')).headers.get('etag'),
      ),
    )
    expect(etags[0]).toBe(etags[1])
    const fromFile = await startTestServer()
    try {
      expect((await fromFile.get('/api/v1/facts?q=alcool%C3%A9mie&po_live=1')).headers.get('etag')).toBe(
        etags[0],
      )
    } finally {
      await fromFile.close()
    }
  })

  it('refuses a snapshot that fails validation, counts it, and keeps serving the previous one', async () => {
    const client = await connect(schema.url)
    try {
      const bad = prepareSnapshot(titled('')) // published by a writer that skipped validation
      await publishSnapshot(client, bad, await planAgainstCurrent(client, hashesOf(bad)))
    } finally {
      await client.end()
    }
    await expect.poll(() => metric(other, 'reference_records_records_updates_refused_total')).toBe(1)
    // Both replicas read the bad snapshot before the next publication: a replica that had not begun
    // its read by then would read the next one instead, and count no refusal (the last test's count).
    await expect.poll(() => metric(replica, 'reference_records_records_updates_refused_total')).toBe(1)
    expect(await titleOn(other)).toBe(fixture[0]!.title)
    expect(await metric(other, 'reference_records_snapshot_id')).toBe(1)
    await publishRecords(schema.url, titled('Après le refus'))
    await expect.poll(() => titleOn(other)).toBe('Après le refus')
    expect(await metric(other, 'reference_records_snapshot_id')).toBe(3)
  })

  it('keeps serving while PostgreSQL is unreachable, and catches up with a publication it was not notified of', async () => {
    await expect.poll(() => titleOn(replica)).toBe('Après le refus')
    proxy.cut()
    await expect.poll(() => metric(replica, 'reference_records_records_source_connected')).toBe(0)
    await publishRecords(schema.url, titled('Pendant la coupure')) // its NOTIFY cannot reach the replica
    expect(await titleOn(replica)).toBe('Après le refus')
    expect((await replica.raw('/readyz')).status).toBe(200)
    proxy.restore()
    await expect.poll(() => titleOn(replica), { timeout: 15_000 }).toBe('Pendant la coupure')
    expect(await metric(replica, 'reference_records_records_source_connected')).toBe(1)
    expect(await metric(replica, 'reference_records_records_updates_refused_total')).toBe(1) // the bad snapshot only
  }, 30_000)
})
