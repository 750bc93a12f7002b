import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer } from '../../src/service/service.js'
import type { CliIo } from '../../src/cli/commands/command-io.js'
import { runDump } from '../../src/cli/commands/dump.js'
import { apiError, envelope, fakeFact, json, useScriptedServers } from '../support/scripted-server.js'

let server: RunningServer
beforeAll(async () => {
  server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      RECORDS_FILE: 'test/fixtures/records.small.json',
      LOG_LEVEL: 'silent',
    }),
  )
})
afterAll(() => server?.close())

/** Streams that remember what was written; stderr may pretend to be a terminal. */
function memoryIo(stderrIsTTY: boolean, { sharedTerminal = false, baseUrl = `${server.url}/api/v1` } = {}) {
  const collect = (stream: PassThrough) => {
    let text = ''
    stream.on('data', (chunk: Buffer) => (text += chunk))
    return () => text
  }
  const stdout = new PassThrough()
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY, columns: 100 })
  const io: CliIo = {
    stdout,
    stderr,
    stderrIsTTY,
    stdoutSharesTerminal: sharedTerminal,
    env: { REFERENCE_RECORDS_URL: baseUrl },
  }
  return { io, stdout: collect(stdout), stderr: collect(stderr) }
}

describe('runDump', () => {
  it('draws a progress bar on stderr when it is a terminal', async () => {
    const { io, stdout, stderr } = memoryIo(true)
    expect(await runDump(['--kind', 'lesson'], io)).toBe(0)
    expect(stdout().trim().split('\n')).toHaveLength(3)
    expect(stderr()).toContain('dump [')
    expect(stderr()).toContain('3/3 records')
  })

  it('draws nothing otherwise, and ends with one summary line on stderr whatever the terminal', async () => {
    const { io, stdout, stderr } = memoryIo(false)
    expect(await runDump([], io)).toBe(0)
    expect(stdout().trim().split('\n')).toHaveLength(13)
    expect(stderr()).toMatch(/^reference-records dump: 13 records written in [\d.]+ s\n$/)
  })

  it('refuses an unknown kind and stray arguments with exit 2', async () => {
    const { io, stderr } = memoryIo(false)
    expect(await runDump(['--kind', 'facts'], io)).toBe(2)
    expect(await runDump(['everything'], io)).toBe(2)
    expect(stderr()).toContain(
      'reference-records dump: --kind "facts": must be one of fact, expertise, organization, offer, person, article, lesson, page, tool\n',
    )
    expect(stderr()).toContain('reference-records dump: unexpected argument "everything"')
  })

  it('draws no bar when the records go to that same terminal, and one with --out', async () => {
    const shared = memoryIo(true, { sharedTerminal: true })
    expect(await runDump(['--kind', 'lesson'], shared.io)).toBe(0)
    expect(shared.stderr()).toMatch(/^reference-records dump: 3 records written in [\d.]+ s\n$/)
    const toFile = memoryIo(true, { sharedTerminal: true })
    const out = join(mkdtempSync(join(tmpdir(), 'dump-bar-')), 'lessons.ndjson')
    expect(await runDump(['--kind', 'lesson', '--out', out], toFile.io)).toBe(0)
    expect(toFile.stderr()).toContain('3/3 records')
  })

  describe('during a wait', () => {
    const scripted = useScriptedServers()
    // A service whose catalogue offers no download: dump pages through the search.
    const pagingOnly = (total: number) =>
      json({
        records: { total, by_kind: { fact: total } },
        links: { self: '/api/v1/', search: '/api/v1/facts' },
      })

    it('the bar says why it does not move', async () => {
      const service = await scripted(
        pagingOnly(4),
        json(envelope([fakeFact(1), fakeFact(2)], 4)),
        apiError(429, 'rate_limited', 'Too many requests', { 'retry-after': '1' }),
        json(envelope([fakeFact(3), fakeFact(4)], 4, 2)),
      )
      const { io, stdout, stderr } = memoryIo(true, { baseUrl: `${service.url}/api/v1` })
      expect(await runDump([], io)).toBe(0)
      expect(stdout().trim().split('\n')).toHaveLength(4)
      expect(stderr()).toContain('dump [')
      expect(stderr()).toContain('2/4 records · rate limited (429): Too many requests; retry 1 of 3 in 1 s')
      expect(stderr()).toContain('4/4 records')
    })

    it('the bar counts a wait down instead of showing the same wait until it ends', async () => {
      const service = await scripted(
        pagingOnly(4),
        json(envelope([fakeFact(1), fakeFact(2)], 4)),
        apiError(429, 'rate_limited', 'Too many requests; retry in 3 s', { 'retry-after': '3' }),
        json(envelope([fakeFact(3), fakeFact(4)], 4, 2)),
      )
      const { io, stderr } = memoryIo(true, { baseUrl: `${service.url}/api/v1` })
      expect(await runDump([], io)).toBe(0)
      expect(stderr()).toContain('rate limited (429): Too many requests; retry 1 of 3 in 3 s')
      expect(stderr()).toContain('rate limited (429): Too many requests; retry 1 of 3 in 2 s')
      expect(stderr()).not.toMatch(/retry in 3 s; retry/) // the wait said once
    })

    it('before the first page, each wait is a line', async () => {
      const service = await scripted(
        apiError(503, 'unavailable', 'Loading', { 'retry-after': '0' }),
        pagingOnly(1),
        json(envelope([fakeFact(1)], 1)),
      )
      const { io, stderr } = memoryIo(true, { baseUrl: `${service.url}/api/v1` })
      expect(await runDump([], io)).toBe(0)
      expect(stderr()).toMatch(
        /^reference-records dump: service unavailable \(503\): Loading; retry 1 of 3 in 0 s\n/,
      )
    })
  })
})
