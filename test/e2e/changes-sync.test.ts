/**
 * The change feed and `sync` against a running service, across three publications of a records
 * file: additions, edits and removals reach the mirror, which always equals the download sorted by
 * id and its checksum; a since older than the kept history is a 410 and a full download again.
 * Every feed answer is checked against the OpenAPI document.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { RecordsClient, sync } from '../../src/client/index.js'
import { runSync } from '../../src/cli/commands/sync.js'
import type { Fact } from '../../src/core/records/record.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const original = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const dir = mkdtempSync(join(tmpdir(), 'changes-'))
const file = join(dir, 'records.json')
const mirrorDir = join(dir, 'mirror')
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

let server: TestServer
let client: RecordsClient
/** Publishes `records` as an operator should (write beside, rename) and waits for the service to serve them. */
async function publish(records: Fact[]): Promise<void> {
  const swapped = server === undefined ? undefined : new Promise((resolve) => server.records.onSwap(resolve))
  writeFileSync(`${file}.tmp`, JSON.stringify(records))
  renameSync(`${file}.tmp`, file)
  await swapped
}

/** The download's records sorted by id, as the mirror must hold them, and its headers. */
async function download() {
  const res = await server.get('/api/v1/facts.ndjson', { headers: { 'accept-encoding': 'identity' } })
  const lines = res.text.split('\n').filter((l) => l !== '')
  const sorted = lines.sort((a, b) => {
    const [x, y] = [JSON.parse(a).id as string, JSON.parse(b).id as string]
    return x < y ? -1 : x > y ? 1 : 0
  })
  return {
    text: sorted.map((l) => `${l}\n`).join(''),
    publication: res.headers.get('x-publication-id')!,
    checksum: res.headers.get('x-records-checksum')!,
  }
}
const mirror = () => readFileSync(join(mirrorDir, 'facts.ndjson'), 'utf8')
const state = () => JSON.parse(readFileSync(join(mirrorDir, 'sync.json'), 'utf8'))

beforeAll(async () => {
  await publish(original)
  server = await startTestServer({ RECORDS_FILE: file })
  client = new RecordsClient({ baseUrl: `${server.url}/api/v1`, mode: 'script' })
})
afterAll(() => server.close())

const [first, second, third] = [original[0]!, original[1]!, original[2]!]
const added = { ...first, id: 'fait-00000000000000ad', title: 'Une fiche ajoutée' } as Fact

it('syncs across three publications: a download, then edits, additions and removals from the feed', async () => {
  // Publication 1: the first run downloads; the mirror is the download sorted by id, and its SHA-256 the header's.
  const one = await download()
  expect(one.checksum).toBe(`sha256=${sha256(one.text)}`)
  const report1 = await sync(client, mirrorDir)
  expect(report1).toMatchObject({ mode: 'download', publication: one.publication, records: original.length })
  expect(mirror()).toBe(one.text)
  expect(await sync(client, mirrorDir)).toMatchObject({ mode: 'current', publication: one.publication })

  // Publication 2: one edited, one removed, one added.
  const edited = { ...first, title: 'Un titre revu', modified_at: '2026-11-01T10:00:00Z' }
  await publish([edited, ...original.slice(2), added])
  const feed = await server.get(`/api/v1/changes?since=${one.publication}`)
  expect(feed.status).toBe(200)
  expect(feed.body.changes.map((c: { id: string; change: string }) => [c.id, c.change])).toEqual(
    [
      [first.id, 'changed'],
      [second.id, 'removed'],
      [added.id, 'added'],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
  )
  const change = feed.body.changes.find((c: { id: string }) => c.id === first.id)
  expect(change).toMatchObject({
    modified_at: '2026-11-01T10:00:00Z',
    href: `/api/v1/facts/${first.id}`,
    page: `/fiches/${first.id}`,
  })
  expect(feed.body.next).toBeNull()
  const two = await download()
  expect(feed.body.publication).toMatchObject({
    id: two.publication,
    checksum: two.checksum.slice('sha256='.length),
  })
  expect(await sync(client, mirrorDir)).toMatchObject({ mode: 'changes', added: 1, changed: 1, removed: 1 })
  expect(mirror()).toBe(two.text)

  // Publication 3: another removal; the CLI applies it.
  await publish([edited, ...original.slice(3), added])
  const out = new PassThrough()
  let printed = ''
  out.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  const io = {
    stdout: out,
    stderr: new PassThrough(),
    stderrIsTTY: false,
    stdoutSharesTerminal: false,
    env: {},
  }
  expect(await runSync([mirrorDir, '--base-url', server.url], io)).toBe(0)
  expect(printed).toMatch(/0 added, 0 changed, 1 removed/)
  const three = await download()
  expect(mirror()).toBe(three.text)
  expect(state()).toMatchObject({ publication: three.publication, checksum: three.checksum.slice(7) })

  // From publication 1, the feed pages through both publications' changes in order.
  const pages: string[][] = []
  let page = (await server.get(`/api/v1/changes?since=${one.publication}&limit=1`)).body
  for (;;) {
    pages.push(
      page.changes.map(
        (c: { id: string; change: string; publication: string }) => `${c.publication}:${c.id}:${c.change}`,
      ),
    )
    if (page.next === null) break
    page = (await server.get(`/api/v1/changes?cursor=${encodeURIComponent(page.next)}&limit=1`)).body
  }
  expect(pages.flat()).toHaveLength(4)
  expect(pages.flat().at(-1)).toBe(`${three.publication}:${third.id}:removed`)
}, 60_000)

it('leaves the mirror whole when applying the feed fails, or when the result differs from the checksum', async () => {
  await sync(client, mirrorDir)
  const [before, stateBefore] = [mirror(), state()]
  await publish([...original.slice(0, 3), { ...added, title: 'Encore une autre' }])
  // The connection breaks while the changed records are read: nothing is written.
  const broken = new RecordsClient({
    baseUrl: `${server.url}/api/v1`,
    mode: 'script',
    maxRetries: 0,
    fetch: (input, init) =>
      String(input).includes('/facts/') ? Promise.reject(new Error('connection reset')) : fetch(input, init),
  })
  await expect(sync(broken, mirrorDir)).rejects.toThrow(/connection reset/)
  expect([mirror(), state()]).toEqual([before, stateBefore])
  // A record that reads back different from what was published never passes the checksum: downloaded whole instead.
  const altering = new RecordsClient({
    baseUrl: `${server.url}/api/v1`,
    mode: 'script',
    fetch: async (input, init) => {
      const res = await fetch(input, init)
      if (!String(input).includes('/facts/')) return res
      const body = (await res.text()).replace('"title":"', '"title":"Altéré ')
      return new Response(body, { status: res.status, headers: res.headers })
    },
  })
  const reasons: string[] = []
  const report = await sync(altering, mirrorDir, { onDownload: (reason) => reasons.push(reason) })
  expect(report.mode).toBe('download')
  expect(reasons).toEqual([expect.stringMatching(/did not give the publication's checksum/)])
  expect(mirror()).toBe((await download()).text)
})

it('answers 410 for a since older than the kept history, and sync downloads everything again', async () => {
  const gone = await server.get('/api/v1/changes?since=ffffffffffffffff')
  expect(gone.status).toBe(410)
  expect(gone.body.error.code).toBe('gone')
  expect(gone.body.error.message).toMatch(/download the whole snapshot again/)
  const old = await server.get('/api/v1/changes?since=2000-01-01T00:00:00Z')
  expect(old.status).toBe(410)

  writeFileSync(join(mirrorDir, 'sync.json'), JSON.stringify({ ...state(), publication: 'ffffffffffffffff' }))
  const reasons: string[] = []
  const report = await sync(client, mirrorDir, { onDownload: (reason) => reasons.push(reason) })
  expect(report.mode).toBe('download')
  expect(reasons[0]).toMatch(/no longer keeps the changes since ffffffffffffffff/)
  expect(mirror()).toBe((await download()).text)
})

it('refuses bad parameters with a 400 naming the parameter', async () => {
  const cases: [string, RegExp][] = [
    ['', /"since" is required/],
    ['?since=yesterday', /"since" must be a publication id/],
    ['?since=1&cursor=1:0', /"cursor" continues a previous answer on its own/],
    ['?cursor=abc', /"cursor" must be the next value/],
    ['?since=1&limit=0', /"limit" must be an integer from 1 to 1000/],
    ['?since=1&from=2', /Unknown query parameter "from"/],
  ]
  for (const [query, message] of cases) {
    const res = await server.get(`/api/v1/changes${query}`)
    expect(res.status, query).toBe(400)
    expect(res.body.error.code).toBe('invalid_parameter')
    expect(res.body.error.message).toMatch(message)
  }
})

it('counts the feed in the quota', async () => {
  const res = await server.get(`/api/v1/changes?since=${(await download()).publication}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('ratelimit')).toMatch(/r=\d+/)
})
