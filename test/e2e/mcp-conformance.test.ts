/**
 * The official MCP conformance suite's server scenarios against the service, in both protocol eras,
 * compared with an expected-failures baseline (conformance-baseline.json: each listed scenario with
 * its reason). The run fails when a scenario not listed fails, and when a listed one passes (the
 * baseline must then lose it), as the suite's own `--expected-failures` does.
 *
 * The suite needs Node 22 or later (its dependencies say so), so it runs through npx under Node 24
 * from the npm registry, whatever Node runs the tests. Its 0.1 releases speak only the 2025 era (their
 * client is the v1 SDK's: an initialize handshake at 2025-11-25; `--spec-version` only filters
 * scenarios); the 2026-07-28 wire is spoken by the 0.2 pre-releases, whose `--requirements 2026-07-28`
 * runs exactly that revision's scenarios at its wire. Both are pinned.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const SUITES = {
  '2025-11-25': { package: '@modelcontextprotocol/conformance@0.1.16', args: [] },
  '2026-07-28': {
    package: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    args: ['--requirements', '2026-07-28'],
  },
} as const
type Era = keyof typeof SUITES
const NODE = 'node@24'
/** The first run downloads Node 24 and the suite (tens of MB); later runs find them in npm's cache. */
const RUN_TIMEOUT_MS = 5 * 60_000

const baseline = JSON.parse(
  readFileSync(new URL('conformance-baseline.json', import.meta.url), 'utf8'),
) as Record<Era, Record<string, string>>

let server: TestServer
const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'))
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
  rmSync(out, { recursive: true, force: true })
})

type Check = { id: string; status: string; errorMessage?: string }

/** Runs the suite's server scenarios against `url`; each scenario's checks, by scenario name. */
async function runSuite(era: Era, url: string): Promise<Map<string, Check[]>> {
  const dir = join(out, era)
  const { package: pkg, args } = SUITES[era]
  const command = [
    '-y',
    '-p',
    NODE,
    '-p',
    pkg,
    '--',
    'conformance',
    'server',
    '--url',
    url,
    '-o',
    dir,
    ...args,
  ]
  const child = spawn('npx', command, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout.on('data', (c: Buffer) => (log += c))
  child.stderr.on('data', (c: Buffer) => (log += c))
  // The suite exits 1 when a scenario fails: the baseline, not its exit code, says what may.
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const results = new Map<string, Check[]>()
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    throw new Error(`the conformance suite wrote no results (exit ${code}):\n${log.slice(-4000)}`)
  }
  for (const entry of entries) {
    // One folder per scenario: server-<scenario>-<ISO timestamp with dashes>.
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1]
    if (scenario === undefined) continue
    results.set(scenario, JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as Check[])
  }
  if (results.size === 0)
    throw new Error(`the conformance suite ran no scenario (exit ${code}):\n${log.slice(-4000)}`)
  return results
}

for (const era of Object.keys(SUITES) as Era[]) {
  describe(`the official conformance suite, ${era} era`, () => {
    it(
      'fails only the scenarios of the baseline, each for its reason',
      async () => {
        const results = await runSuite(era, `${server.url}/mcp`)
        const failing = new Map<string, string>()
        for (const [scenario, checks] of results) {
          const failed = checks.find((c) => c.status === 'FAILURE')
          if (failed !== undefined) failing.set(scenario, `${failed.id}: ${failed.errorMessage ?? ''}`)
        }
        const expected = baseline[era]
        const unexpected = [...failing]
          .filter(([s]) => !Object.hasOwn(expected, s))
          .map(([s, why]) => `${s} (${why})`)
        const nowPassing = Object.keys(expected).filter((s) => results.has(s) && !failing.has(s))
        expect(unexpected, 'scenarios failing that the baseline does not list').toEqual([])
        expect(nowPassing, 'scenarios of the baseline that pass now: remove them from it').toEqual([])
        // What a read-only domain server can meet, whatever the baseline says.
        const required =
          era === '2025-11-25'
            ? [
                'server-initialize',
                'ping',
                'tools-list',
                'resources-list',
                'prompts-list',
                'completion-complete',
                'logging-set-level',
                'dns-rebinding-protection',
              ]
            : [
                'tools-list',
                'resources-list',
                'prompts-list',
                'completion-complete',
                'caching',
                'sep-2164-resource-not-found',
                'dns-rebinding-protection',
              ]
        for (const scenario of required) {
          expect(results.has(scenario), `${scenario} was run`).toBe(true)
          expect(failing.get(scenario), scenario).toBeUndefined()
        }
        // Every listed reason is a sentence, not a placeholder.
        for (const [scenario, reason] of Object.entries(expected))
          expect(reason.length, scenario).toBeGreaterThan(10)
      },
      RUN_TIMEOUT_MS,
    )
  })
}
