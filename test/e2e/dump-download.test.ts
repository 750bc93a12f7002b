/** `dump` reads the whole-catalogue download when the service offers it: one request, whatever the size. */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/cli/commands/command-io.js'
import { runDump } from '../../src/cli/commands/dump.js'
import { fakeFact, json, useScriptedServers } from '../support/scripted-server.js'

function memoryIo(baseUrl: string) {
  let out = ''
  let err = ''
  const stdout = new PassThrough().on('data', (c: Buffer) => (out += c))
  const stderr = new PassThrough().on('data', (c: Buffer) => (err += c))
  const io: CliIo = {
    stdout,
    stderr,
    stderrIsTTY: false,
    stdoutSharesTerminal: false,
    env: { REFERENCE_RECORDS_URL: baseUrl },
  }
  return { io, stdout: () => out, stderr: () => err }
}

const catalogue = (download: string | undefined, total: number) => ({
  records: { total, by_kind: { fact: total } },
  links: { self: '/api/v1/', search: '/api/v1/facts', ...(download === undefined ? {} : { download }) },
})
const ndjson = (records: unknown[]) => ({
  status: 200,
  headers: { 'content-type': 'application/x-ndjson' },
  body: records.map((r) => `${JSON.stringify(r)}\n`).join(''),
})

describe('dump over the download', () => {
  const scripted = useScriptedServers()

  it('reads every record in one request when the catalogue links a download, filtering by kind itself', async () => {
    const records = [
      fakeFact(1),
      { ...fakeFact(2), kind: 'lesson', id: 'page-0000000000000002' },
      fakeFact(3),
    ]
    const server = await scripted(
      json(catalogue('/api/v1/facts.ndjson', 3)),
      ndjson(records),
      json(catalogue('/api/v1/facts.ndjson', 3)),
      ndjson(records),
    )
    const all = memoryIo(`${server.url}/api/v1`)
    expect(await runDump([], all.io)).toBe(0)
    expect(all.stdout()).toBe(records.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const facts = memoryIo(`${server.url}/api/v1`)
    expect(await runDump(['--kind', 'fact'], facts.io)).toBe(0)
    expect(
      facts
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([fakeFact(1).id, fakeFact(3).id])
    expect(server.log).toEqual([
      'GET /api/v1/?po_live=1',
      'GET /api/v1/facts.ndjson',
      'GET /api/v1/?po_live=1',
      'GET /api/v1/facts.ndjson',
    ])
  })

  it('reads the catalogue once when given the service’s address rather than the API root', async () => {
    const records = [fakeFact(1), fakeFact(2)]
    const server = await scripted(json(catalogue('/api/v1/facts.ndjson', 2)), ndjson(records))
    const run = memoryIo(server.url) // as `serve` logs it: no /api/v1
    expect(await runDump([], run.io)).toBe(0)
    expect(run.stdout()).toBe(records.map((r) => `${JSON.stringify(r)}\n`).join(''))
    expect(server.log).toEqual(['GET /api/v1/?po_live=1', 'GET /api/v1/facts.ndjson'])
  })

  it('fails with exit 1 when the download ends mid-line, rather than write a short listing', async () => {
    const truncated = { status: 200, body: `${JSON.stringify(fakeFact(1))}\n{"id":"fait-00` }
    const server = await scripted(json(catalogue('/api/v1/facts.ndjson', 2)), truncated)
    const run = memoryIo(`${server.url}/api/v1`)
    expect(await runDump([], run.io)).toBe(1)
    expect(run.stderr()).toBe(
      `reference-records dump: ${server.url}/api/v1/facts.ndjson: the download ended in the middle of line 2; the listing is incomplete, retry\n`,
    )
  })

  it('pages when the download link is on another origin', async () => {
    const server = await scripted(
      json(catalogue('https://elsewhere.example/api/v1/facts.ndjson', 1)),
      json({ results: [fakeFact(1)], total: 1, limit: 50, offset: 0 }),
    )
    const run = memoryIo(`${server.url}/api/v1`)
    expect(await runDump([], run.io)).toBe(0)
    expect(server.log).toEqual(['GET /api/v1/?po_live=1', 'GET /api/v1/facts?po_live=1&limit=50&offset=0'])
  })
})
