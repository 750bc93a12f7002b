/**
 * The change feed from PostgreSQL: the history is read from the publishing tables, so two replicas
 * of one database answer the same page for the same since and cursor, publication ids are the
 * publications' numbers, and a since whose snapshot the retention pruned answers 410; `sync`
 * follows three publications, removals included.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { RecordsClient, sync } from '../../src/client/index.js'
import type { Fact } from '../../src/core/records/record.js'
import { createTestSchema, publishRecords, type TestSchema } from '../support/postgres.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const original = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const mirrorDir = join(mkdtempSync(join(tmpdir(), 'changes-pg-')), 'mirror')

let schema: TestSchema
let replicas: TestServer[]

/** Publishes and waits until both replicas serve the publication's change feed. */
async function publish(records: Fact[], keep?: number): Promise<string> {
  const { publication } = await publishRecords(schema.url, records, keep === undefined ? {} : { keep })
  const id = String(publication.publicationId)
  for (const replica of replicas)
    await expect
      .poll(async () => (await replica.raw(`/api/v1/changes?since=${id}`)).body?.publication?.id, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(id)
  return id
}

beforeAll(async () => {
  schema = await createTestSchema('rr_changes')
  await publishRecords(schema.url, original)
  replicas = [
    await startTestServer({ DATABASE_URL: schema.url }),
    await startTestServer({ DATABASE_URL: schema.url }),
  ]
})
afterAll(async () => {
  for (const replica of replicas ?? []) await replica.close()
  await schema?.drop()
})

it('replicas agree on the feed; sync follows three publications; a pruned since is 410', async () => {
  const first = '1'
  for (const replica of replicas)
    await expect
      .poll(async () => (await replica.raw(`/api/v1/changes?since=1`)).status, { timeout: 15_000 })
      .toBe(200)
  const client = new RecordsClient({ baseUrl: `${replicas[0]!.url}/api/v1`, mode: 'script' })
  expect(await sync(client, mirrorDir)).toMatchObject({ mode: 'download', publication: first })

  const [a, b, c] = [original[0]!, original[1]!, original[2]!]
  const second = await publish([{ ...a, title: 'Titre revu' }, ...original.slice(2)])
  const third = await publish([
    { ...a, title: 'Titre revu' },
    ...original.slice(3),
    { ...b, id: 'fait-00000000000000ad' },
  ])
  expect([second, third]).toEqual(['2', '3'])

  // Page by page, the same answers from either replica (a cursor from one is read by the other).
  let cursor: string | null = null
  const seen: string[] = []
  do {
    const query: string = cursor === null ? 'since=1&limit=2' : `cursor=${cursor}&limit=2`
    const [x, y] = await Promise.all(replicas.map((r) => r.get(`/api/v1/changes?${query}`)))
    expect(x!.text).toBe(y!.text)
    for (const change of x!.body.changes) seen.push(`${change.publication} ${change.id} ${change.change}`)
    cursor = x!.body.next
  } while (cursor !== null)
  expect(seen).toEqual([
    `2 ${a.id} changed`,
    `2 ${b.id} removed`,
    ...[`3 ${c.id} removed`, `3 fait-00000000000000ad added`].sort(),
  ])

  expect(await sync(client, mirrorDir)).toMatchObject({
    mode: 'changes',
    publication: '3',
    added: 1,
    changed: 1,
    removed: 2,
  })
  const download = await replicas[0]!.get('/api/v1/facts.ndjson', {
    headers: { 'accept-encoding': 'identity' },
  })
  expect(download.headers.get('x-publication-id')).toBe('3')

  // Keeping two snapshots prunes the first ones: their changes cannot be told any more.
  await publish(original, 2)
  const gone = await replicas[1]!.get('/api/v1/changes?since=1')
  expect(gone.status).toBe(410)
  expect(gone.body.error.code).toBe('gone')
  expect(await sync(client, mirrorDir)).toMatchObject({ mode: 'changes', publication: '4' })
}, 90_000)
