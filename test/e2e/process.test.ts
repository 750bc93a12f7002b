/** The shipped binary as a process: start on the bundled records, graceful SIGTERM, refusal of bad files and settings. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { KINDS, type Kind } from '../../src/core/records/record.js'
import { listeningUrl, spawnCli } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const serve = (env: Record<string, string> = {}, args: string[] = []) =>
  spawnCli(['serve', '--port', '0', '--host', '127.0.0.1', ...args], { LOG_LEVEL: 'info', ...env })

describe('reference-records serve', () => {
  it('serves the bundled sample records by default: all of them, every kind', async () => {
    const bundled = (JSON.parse(readFileSync(BUNDLED_RECORDS_FILE, 'utf8')) as { records: { kind: Kind }[] })
      .records
    const byKind = Object.fromEntries(
      KINDS.map((kind) => [kind, bundled.filter((r) => r.kind === kind).length]),
    )
    for (const kind of KINDS) expect(byKind[kind], `the sample holds no ${kind}`).toBeGreaterThan(0) // of the sample, not of the answer
    const service = serve()
    try {
      const url = await listeningUrl(service)
      const catalogue = await (await fetch(`${url}/api/v1/?po_live=1`)).json()
      expect(catalogue.records).toEqual({
        total: bundled.length,
        by_kind: byKind,
        to_reverify: expect.any(Number) as unknown, // official rules verified more than 12 months ago, as of today
      })
    } finally {
      service.child.kill('SIGTERM')
      expect(await service.exited).toBe(0)
    }
  })

  it('on SIGTERM stops accepting, answers a request completed during the drain with 503 + error body, exits 0', async () => {
    const service = serve({ RECORDS_FILE: SMALL_FIXTURE })
    const { port } = new URL(await listeningUrl(service))
    const socket = connect(Number(port), '127.0.0.1')
    let response = ''
    socket.on('data', (c) => (response += c))
    await new Promise((r) => socket.once('connect', r))
    socket.write('GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: localhost\r\n') // head half sent when the signal arrives
    await new Promise((r) => setTimeout(r, 100))
    service.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow() // no longer accepting
    socket.write('\r\n')
    expect(await service.exited).toBe(0)
    expect(response).toMatch(/^HTTP\/1\.1 503 /)
    expect(response).toMatch(/access-control-allow-origin: \*/i)
    expect(response).toMatch(/retry-after: 1/i)
    expect(response).toMatch(
      /\{"error":\{"code":"unavailable","message":"The server is shutting down; retry shortly"\}\}$/,
    )
  })

  it('writes JSON logs with a request id and no client address in clear', async () => {
    const service = serve({ RECORDS_FILE: SMALL_FIXTURE })
    const url = await listeningUrl(service)
    await fetch(`${url}/api/v1/facts?po_live=1`, { headers: { 'x-request-id': 'log-test-1' } })
    service.child.kill('SIGTERM')
    await service.exited
    const lines = service
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const completed = lines.find((l) => l.reqId === 'log-test-1' && l.res)
    expect(completed).toMatchObject({ level: 30, res: { statusCode: 200 } })
    const incoming = lines.find((l) => l.reqId === 'log-test-1' && l.req)
    expect(incoming.req.client).toMatch(/^[0-9a-f]{12}$/)
    expect(service.stdout()).not.toContain('127.0.0.1"') // the address is never logged as a value
  })

  it('refuses to start on a bad records file, naming the record, the field and the problem', async () => {
    const records = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8'))
    records[7].verified_at = '2026-13-01'
    const file = join(mkdtempSync(join(tmpdir(), 'bad-')), 'records.json')
    writeFileSync(file, JSON.stringify(records))
    const service = serve({ RECORDS_FILE: file })
    expect(await service.exited).toBe(3)
    expect(service.stderr()).toMatch(
      /^reference-records serve: records: file:.*records\.json: 1 problem\(s\), nothing loaded\n {2}record 7 \(id "page-[0-9a-f]{16}"\): field "verified_at": Invalid ISO date/,
    )
    expect(service.stdout()).not.toMatch(/Server listening/)
  })

  it('refuses bad settings with exit code 2, naming each', async () => {
    const service = spawnCli(['serve', '--port', 'http', '--log-level', 'chatty'])
    expect(await service.exited).toBe(2)
    expect(service.stderr()).toMatch(/PORT \(--port\) = "http": must be a whole number from 0 to 65535/)
    expect(service.stderr()).toMatch(/LOG_LEVEL \(--log-level\) = "chatty"/)
  })

  it('refuses an unknown flag with exit code 2, in our words, suggesting the near one', async () => {
    const service = spawnCli(['serve', '--prot', '80'])
    expect(await service.exited).toBe(2)
    expect(service.stderr()).toBe(
      'reference-records serve: unknown option --prot; did you mean --port?\nRun "reference-records serve --help" for the options.\n',
    )
  })
})
