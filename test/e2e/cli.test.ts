/**
 * The client commands as a user runs them: `node --import tsx src/cli/main.ts <command>` in a child
 * process (the Node running the tests, 20.19+), against the real service or a scripted one.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import type { Fact } from '../../src/core/records/record.js'
import { needsReverification } from '../../src/core/records/status.js'
import { startServer, type RunningServer } from '../../src/service/service.js'
import { apiError, envelope, fakeFact, json, useScriptedServers } from '../support/scripted-server.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const FIXTURE = join(ROOT, 'test/fixtures/records.small.json')
const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fact[]
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)

type Run = { code: number; stdout: string; stderr: string }

/** Runs the CLI with only PATH (and what `env` adds) in its environment. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

let server: RunningServer
let api: string
let dir: string
beforeAll(async () => {
  server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RECORDS_FILE: FIXTURE, LOG_LEVEL: 'silent' }),
  )
  api = `${server.url}/api/v1`
  dir = mkdtempSync(join(tmpdir(), 'records-cli-'))
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('dump', () => {
  it('writes every record of the service as NDJSON, and one summary line when stderr is not a terminal', async () => {
    const out = join(dir, 'all.ndjson')
    const run = await cli(['dump', '--base-url', api, '--out', out])
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(run.stderr).toMatch(
      new RegExp(`^reference-records dump: ${fixture.length} records written to ${out} in [\\d.]+ s\\n$`),
    )
    const lines = readFileSync(out, 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    const records = lines.slice(0, -1).map((line) => JSON.parse(line) as Fact)
    expect(records.sort(byId)).toEqual([...fixture].sort(byId))
    expect(readdirSync(dir)).toEqual(['all.ndjson']) // no temporary file left behind
  })

  it('writes one kind to stdout, reading the API root from REFERENCE_RECORDS_URL', async () => {
    const run = await cli(['dump', '--kind', 'fact'], { REFERENCE_RECORDS_URL: api })
    expect(run.code).toBe(0)
    const records = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Fact)
    expect(records.sort(byId)).toEqual(fixture.filter((r) => r.kind === 'fact').sort(byId))
  })

  describe('against a misbehaving server', () => {
    const scripted = useScriptedServers()
    /** The catalogue of a service that offers no whole-catalogue download: dump pages. */
    const catalogueWithoutDownload = {
      records: { total: 5, by_kind: {} },
      links: { self: '/api/v1/', search: '/api/v1/facts' },
    }

    it('fails with exit 1 and leaves no file when a page comes back empty before the total', async () => {
      const bad = await scripted(
        json(catalogueWithoutDownload),
        json(envelope([fakeFact(1), fakeFact(2)], 5, 0)),
        json(envelope([], 5, 2)),
      )
      const out = join(dir, 'anomaly.ndjson')
      const run = await cli(['dump', '--base-url', `${bad.url}/api/v1`, '--out', out])
      expect(run.code).toBe(1)
      expect(run.stderr).toBe(
        'reference-records dump: Paging anomaly: the page at offset 2 is empty although the server reports 5 matching records ' +
          '(2 received so far); the listing is incomplete, retry later\n',
      )
      expect(existsSync(out)).toBe(false)
      expect(readdirSync(dir).filter((f) => f.includes('anomaly'))).toEqual([])
      expect(bad.log).toEqual([
        'GET /api/v1/?po_live=1', // no download offered: paging
        'GET /api/v1/facts?po_live=1&limit=50&offset=0',
        'GET /api/v1/facts?po_live=1&limit=50&offset=2',
      ])
    })

    it('removes the partial file when interrupted with Ctrl-C', async () => {
      const slow = await scripted(json(catalogueWithoutDownload), json(envelope([fakeFact(1)], 2, 0)), {
        ...json(envelope([fakeFact(2)], 2, 1)),
        delayMs: 5000,
      })
      const out = join(dir, 'interrupted.ndjson')
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'dump', '--base-url', `${slow.url}/api/v1`, '--out', out],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH },
        },
      )
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
      while (slow.log.length < 3) await new Promise((resolve) => setTimeout(resolve, 20))
      child.kill('SIGINT')
      const code = await new Promise((resolve) => child.on('exit', resolve))
      expect(code).toBe(1)
      expect(stderr).toBe(`reference-records dump: interrupted; ${out} was not written\n`)
      expect(readdirSync(dir).filter((f) => f.includes('interrupted'))).toEqual([])
    })

    it('exits 4 at once when rate limited for more than a minute', async () => {
      const limited = await scripted(
        apiError(429, 'rate_limited', 'Too many requests', { 'retry-after': '61' }),
      )
      const run = await cli(['dump', '--base-url', `${limited.url}/api/v1`])
      expect(run.code).toBe(4)
      expect(run.stderr).toBe(
        'reference-records dump: Too many requests (the service asks to wait 61 s; retry later)\n',
      )
      expect(limited.log).toHaveLength(1)
    })
  })
})

/** How the CLI says a verification's age today (status.ts's rules), so the expected text holds on any day. */
const daysSince = (date: string) => {
  const now = new Date()
  const days =
    (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - Date.parse(date)) / 86_400_000
  return days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`
}
const reverifyNote = (date: string) =>
  needsReverification({ kind: 'fact', verified_at: date }, new Date())
    ? ': to re-verify (à revérifier, verified more than 12 months ago)'
    : ''

describe('search', () => {
  it('prints titles, kinds, links, official sources with their verification, and the attribution', async () => {
    const run = await cli(['search', 'vitesse', '--kind', 'fact', '--base-url', api])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        '1 record matches "vitesse" (showing 1–1)',
        '',
        '[OFFICIAL RULE] Vitesse maximale en agglomération',
        '  fact · fait-643b555e754f953d',
        '  https://code-et-conduite.example/vitesse-agglomeration',
        '  Official sources:',
        '    - Code de la route, article R413-3 — https://www.legifrance.gouv.fr/codes/section_lc/LEGITEXT000006074228/',
        `  Verified against the official text on 2026-10-02 — ${daysSince('2026-10-02')}${reverifyNote('2026-10-02')} (scope: Relecture de l'article R413-3.)`,
        '  Source : Vitesse maximale en agglomération — https://code-et-conduite.example/vitesse-agglomeration',
        '',
      ].join('\n'),
    )
  })

  it('prints the envelope with --json', async () => {
    const run = await cli([
      'search',
      '--kind',
      'lesson',
      '--limit',
      '2',
      '--offset',
      '1',
      '--json',
      '--base-url',
      api,
    ])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 3, limit: 2, offset: 1 })
  })

  it('refuses a bad option value with exit 2, before any request', async () => {
    const run = await cli(['search', 'x', '--limit', '51', '--base-url', 'http://127.0.0.1:9/api/v1'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'reference-records search: --limit "51": must be an integer from 1 to 50\nRun "reference-records search --help" for usage.\n',
    )
  })
})

describe('get and catalogue', () => {
  it('prints one record as JSON', async () => {
    const run = await cli(['get', 'fait-643b555e754f953d', '--json', '--base-url', api])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual(fixture[0])
  })

  it('exits 3 for an unknown record', async () => {
    const run = await cli(['get', 'fait-0000000000000000', '--base-url', api])
    expect(run).toMatchObject({ code: 3, stdout: '' })
    expect(run.stderr).toBe(
      'reference-records get: no record with id "fait-0000000000000000"; find records with: reference-records search <words>\n',
    )
  })

  it('prints the catalogue', async () => {
    const run = await cli(['catalogue', '--json', '--base-url', api])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ version: '1.4.0', records: { total: fixture.length } })
  })

  it('documents the exit codes in --help', async () => {
    const run = await cli(['get', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Exit codes:\n  0  ok\n')
    expect(run.stdout).toContain('  4  rate limited')
  })
})
