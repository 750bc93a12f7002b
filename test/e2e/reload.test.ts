/** Records follow their file without a restart: a valid update is served at once (no stale cached answer), a bad one is refused. */
import { mkdtempSync, readFileSync, writeFileSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const records = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const dir = mkdtempSync(join(tmpdir(), 'reload-'))
const file = join(dir, 'records.json')
/** Writes the way an operator should: a temporary file renamed over the old one. */
const publish = (content: unknown) => {
  writeFileSync(`${file}.tmp`, JSON.stringify(content))
  renameSync(`${file}.tmp`, file)
}
let server: TestServer
beforeAll(async () => {
  publish(records)
  server = await startTestServer({ RECORDS_FILE: file })
})
afterAll(() => server.close())

it('serves an update without a restart, and refuses a bad one while serving the good records', async () => {
  const path = '/api/v1/facts?q=alcool%C3%A9mie&po_live=1'
  const before = await server.get(path)
  expect(before.body.total).toBe(1)
  const swapped = new Promise((resolve) => server.records.onSwap(resolve))
  const retitled = records.map((r) =>
    r.id === before.body.results[0].id ? { ...r, title: 'Alcoolémie : nouveau titre' } : r,
  )
  publish(retitled)
  await swapped
  const after = await server.get(path)
  expect(after.body.results[0].title).toBe('Alcoolémie : nouveau titre')
  expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
  expect((await server.get(path, { headers: { 'if-none-match': before.headers.get('etag')! } })).status).toBe(
    200,
  )

  publish([...retitled, { ...records[0], id: 'fait-123' }])
  // The refusal is counted once the file is read (after two polls that agree, about 4 s): wait for
  // that, not for a guessed time, with a bound well past it.
  const refusals = async () =>
    /^reference_records_records_updates_refused_total (\d+)$/m.exec((await server.raw('/metrics')).text)?.[1]
  await expect.poll(refusals, { timeout: 15_000, interval: 100 }).toBe('1')
  const still = await server.get(path)
  expect(still.text).toBe(after.text)
}, 30_000)
