/** The publishing pipeline on a real PostgreSQL: migrations, snapshots, diffs, rollback, retention, and what replicas load. */
import { readFileSync } from 'node:fs'
import type pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/core/log.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { listSnapshots } from '../../src/core/records/postgres/history.js'
import {
  MIGRATIONS,
  SCHEMA_VERSION,
  appliedVersion,
  migrate,
} from '../../src/core/records/postgres/migrations.js'
import {
  PublishingError,
  hashesOf,
  planAgainstCurrent,
  prepareSnapshot,
  publishSnapshot,
  rollbackTo,
} from '../../src/core/records/postgres/publisher.js'
import { currentPublication } from '../../src/core/records/postgres/snapshot-reader.js'
import { PostgresRecordSource } from '../../src/core/records/postgres-source.js'
import type { Fact } from '../../src/core/records/record.js'
import { RecordIndex } from '../../src/core/search/record-index.js'
import { followSource } from '../../src/core/snapshots/follow.js'
import { LiveRecords } from '../../src/core/snapshots/live-records.js'
import { loadInWorker } from '../../src/core/snapshots/load-snapshot.js'
import { SMALL_FIXTURE } from '../support/test-server.js'
import {
  connect,
  createTestSchema,
  postgresAvailable,
  publishRecords,
  type TestSchema,
} from '../support/postgres.js'

const available = await postgresAvailable()
const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const retitled = (records: Fact[], id: string, title: string) =>
  records.map((r) => (r.id === id ? { ...r, title } : r))

describe.runIf(available)('publishing to PostgreSQL', () => {
  let schema: TestSchema
  let client: pg.Client
  const sources: PostgresRecordSource[] = []
  beforeEach(async () => {
    schema = await createTestSchema()
    client = await connect(schema.url)
  })
  afterEach(async () => {
    await Promise.all(sources.splice(0).map((s) => s.close()))
    await client.end()
    await schema.drop()
  })
  const source = (checkEveryMs?: number) => {
    const s = new PostgresRecordSource(schema.url, {
      log: silentLog,
      timing: {
        firstBackoffMs: 20,
        maxBackoffMs: 100,
        ...(checkEveryMs === undefined ? {} : { checkEveryMs }),
      },
    })
    sources.push(s)
    return s
  }

  it('migrates idempotently, and concurrent migrators apply each migration once', async () => {
    const others = await Promise.all([connect(schema.url), connect(schema.url)])
    try {
      const reports = await Promise.all([migrate(client), ...others.map((c) => migrate(c))])
      expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 0, MIGRATIONS.length])
    } finally {
      await Promise.all(others.map((c) => c.end()))
    }
    expect(await migrate(client)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] })
  })

  it('upgrades a schema by applying only the missing migrations, in one transaction', async () => {
    await migrate(client)
    const next = {
      version: SCHEMA_VERSION + 1,
      name: 'test column',
      sql: 'ALTER TABLE reference_records_snapshots ADD COLUMN test_flag boolean',
    }
    expect((await migrate(client, [...MIGRATIONS, next])).applied).toEqual([next])
    const broken = {
      version: SCHEMA_VERSION + 2,
      name: 'broken',
      sql: 'ALTER TABLE nowhere ADD COLUMN x int',
    }
    const later = { version: SCHEMA_VERSION + 3, name: 'never', sql: 'CREATE TABLE never_created (x int)' }
    await expect(
      migrate(
        client,
        [...MIGRATIONS, next, later, broken].sort((a, b) => a.version - b.version),
      ),
    ).rejects.toThrow(/nowhere/)
    expect(await appliedVersion(client)).toBe(SCHEMA_VERSION + 1)
  })

  it('stores a snapshot that a replica loads as the same records, with the same content version as the file', async () => {
    const { publication } = await publishRecords(schema.url, fixture, { note: 'first' })
    expect(publication).toMatchObject({
      action: 'publish',
      snapshotId: 1,
      recordCount: fixture.length,
      note: 'first',
    })
    const batch = await source().load()
    const fromFile = RecordIndex.build(await new FileRecordSource(SMALL_FIXTURE).load())
    const fromDatabase = RecordIndex.build(batch)
    expect(fromDatabase.version).toBe(fromFile.version)
    expect(fromDatabase.listed(0, fromDatabase.size).map((e) => e.bytes.toString())).toEqual(
      fromFile.listed(0, fromFile.size).map((e) => e.bytes.toString()),
    )
    expect(batch.publishedAt).toBe(publication.publishedAt.toISOString())
    expect(batch.snapshot).toEqual({ id: 1, publication: publication.publicationId })
  })

  it('computes what a publication changes, and refuses to write once another publication got in first', async () => {
    await publishRecords(schema.url, fixture)
    const next = retitled(fixture, 'fait-643b555e754f953d', 'Nouveau titre').filter(
      (r) => r.id !== 'brand-16395a25a8264e91',
    )
    next.push({ ...fixture[0]!, id: 'fait-0000000000000001' })
    const snapshot = prepareSnapshot(next)
    const plan = await planAgainstCurrent(client, hashesOf(snapshot))
    expect(plan.diff).toEqual({
      added: ['fait-0000000000000001'],
      changed: ['fait-643b555e754f953d'],
      removed: ['brand-16395a25a8264e91'],
      unchanged: fixture.length - 2,
    })
    await publishRecords(schema.url, fixture.slice(1)) // someone else publishes meanwhile
    await expect(publishSnapshot(client, snapshot, plan)).rejects.toThrow(
      new PublishingError(
        'snapshot 2 became current (publication 2) after the changes above were computed; nothing was written: run the command again',
      ),
    )
    expect((await currentPublication(client))?.snapshotId).toBe(2)
  })

  it('rolls back with a new publication event, keeping the history', async () => {
    await publishRecords(schema.url, fixture, { note: 'v1' })
    await publishRecords(schema.url, retitled(fixture, 'fait-643b555e754f953d', 'v2'), { note: 'v2' })
    const plan = await planAgainstCurrent(client, new Map())
    const publication = await rollbackTo(client, 1, plan, { note: 'v2 was wrong' })
    expect(publication).toMatchObject({
      publicationId: 3,
      action: 'rollback',
      snapshotId: 1,
      note: 'v2 was wrong',
    })
    const listed = await listSnapshots(client, 10)
    expect(listed.map((s) => [s.id, s.current, s.note])).toEqual([
      [2, false, 'v2'],
      [1, true, 'v1'],
    ])
    expect(listed[1]!.lastCurrentAt).toEqual(publication.publishedAt)
    expect((await source().load()).records.find((r) => r.id === 'fait-643b555e754f953d')?.title).toBe(
      fixture[0]!.title,
    )
    const again = await planAgainstCurrent(client, new Map())
    await expect(rollbackTo(client, 1, again)).rejects.toThrow('snapshot 1 is already current')
    await expect(rollbackTo(client, 9, again)).rejects.toThrow(
      'no snapshot 9; "reference-records snapshots" lists them',
    )
  })

  it('prunes records past the retention, never the current snapshot nor one a replica is reading', async () => {
    await publishRecords(schema.url, fixture)
    await publishRecords(schema.url, fixture.slice(1))
    const reader = await connect(schema.url)
    try {
      // A replica in the middle of reading snapshot 1 holds its lock shared.
      await reader.query('BEGIN')
      await reader.query(
        `SELECT pg_advisory_xact_lock_shared(hashtext('reference_records.snapshot.' || current_schema()), 1)`,
      )
      const { pruned } = await publishRecords(schema.url, fixture.slice(2), { keep: 1 })
      expect(pruned).toEqual([2])
      await reader.query('COMMIT')
    } finally {
      await reader.end()
    }
    const { pruned } = await publishRecords(schema.url, fixture.slice(3), { keep: 2 })
    expect(pruned).toEqual([1])
    const listed = await listSnapshots(client, 10)
    expect(listed.map((s) => [s.id, s.prunedAt === null])).toEqual([
      [4, true],
      [3, true],
      [2, false],
      [1, false],
    ])
    const rows = await client.query(
      'SELECT snapshot_id, count(*)::int AS n FROM reference_records_snapshot_records GROUP BY 1 ORDER BY 1',
    )
    expect(rows.rows).toEqual([
      { snapshot_id: '3', n: fixture.length - 2 },
      { snapshot_id: '4', n: fixture.length - 3 },
    ])
    await expect(rollbackTo(client, 2, await planAgainstCurrent(client, new Map()))).rejects.toThrow(
      /^snapshot 2 was pruned on .* \(retention\); publish its records again instead$/,
    )
  })

  it('refuses a snapshot whose records do not validate or do not match their checksum, naming the problem', async () => {
    await publishRecords(schema.url, fixture)
    await client.query(
      `UPDATE reference_records_snapshot_records SET record = (record::jsonb || '{"title": ""}')::json WHERE record_id = 'fait-643b555e754f953d'`,
    )
    await expect(source().load()).rejects.toThrow(
      /^records: postgres:\/\/127\.0\.0\.1:5432\/test snapshot 1: checksum [0-9a-f]{12}… of the records read differs from the published [0-9a-f]{12}…; nothing loaded$/,
    )
    // A snapshot published by a writer with another idea of the schema: the checksum is right, the record is not.
    const bad = prepareSnapshot(retitled(fixture, 'fait-643b555e754f953d', ''))
    await publishSnapshot(client, bad, await planAgainstCurrent(client, hashesOf(bad)))
    await expect(source().load()).rejects.toThrow(
      /records: .* snapshot 2: 1 problem\(s\), nothing loaded\n {2}row \d+ \(id "fait-643b555e754f953d"\): field "title": /,
    )
  })

  it('refuses a snapshot holding what XML forbids or a URL the parser would rewrite, naming the row and the field', async () => {
    await publishRecords(schema.url, fixture)
    const [first, second] = [fixture[0]!, fixture[1]!]
    // Published by a writer that skipped validation.
    const bad = prepareSnapshot(
      fixture.map((r) =>
        r.id === first.id
          ? { ...r, title: `Vitesse\u000bmaximale` }
          : r.id === second.id
            ? { ...r, url: 'https://example.com/"><script>alert(1)</script>' }
            : r,
      ),
    )
    await publishSnapshot(client, bad, await planAgainstCurrent(client, hashesOf(bad)))
    const refusal = source().load()
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `row \\d+ \\(id "${first.id}"\\): field "title": holds a vertical tab \\(U\\+000B\\) at character 8`,
      ),
    )
    await expect(refusal).rejects.toThrow(
      new RegExp(`row \\d+ \\(id "${second.id}"\\): field "url": must be written as the WHATWG URL parser`),
    )
  })

  it('signals the first publication to a source that started before the schema existed', async () => {
    const s = source()
    let changes = 0
    s.watch(() => changes++)
    await expect.poll(() => s.connected).toBe(true)
    await expect(s.load()).rejects.toThrow(
      /^records: postgres:\/\/127\.0\.0\.1:5432\/test: nothing published yet/,
    )
    await publishRecords(schema.url, fixture)
    await expect.poll(() => changes).toBe(1)
    expect((await s.load()).records).toHaveLength(fixture.length)
  })

  it('loads a publication once, though checks during its load in a worker see it again (issue 43)', async () => {
    // Checked every 10 ms, a load in a worker (a quarter of a second to start the thread alone)
    // sees the same publication checked many times: before, the follower queued a second load of it.
    const s = source(10)
    const records = new LiveRecords()
    let swaps = 0
    records.onSwap(() => swaps++)
    const follower = followSource(s, records, { log: silentLog, load: loadInWorker })
    try {
      await publishRecords(schema.url, fixture)
      await expect.poll(() => swaps, { timeout: 30_000 }).toBe(1)
      await follower.settled()
      await new Promise((r) => setTimeout(r, 100)) // more checks, all of the publication loaded
      await follower.settled()
      expect(swaps).toBe(1)
      await publishRecords(schema.url, retitled(fixture, fixture[0]!.id, 'Retitré'))
      await expect
        .poll(() => records.current?.get(fixture[0]!.id)?.record.title, { timeout: 30_000 })
        .toBe('Retitré')
      await follower.settled()
      expect(swaps).toBe(2)
    } finally {
      await follower.stop()
    }
  })
})
