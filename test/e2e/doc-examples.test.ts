/**
 * The shell examples of the README and docs/ run as written (issue 44): every `curl` against the
 * documented local address (`localhost:8080`, `127.0.0.1:8080`) or the example public origin
 * (`https://records.example.org`), and every read-only `reference-records` command, are taken from
 * the code blocks of the Markdown files and run with bash (`pipefail`, so a failing `jq` or `grep`
 * after the pipe fails the example) against a service started on the bundled sample. Only the
 * address is rewritten to the service's; `curl` fails on an HTTP error (`--fail-with-body`), as a
 * reader would notice it. A `sha256sum` of a file an earlier example wrote runs too (the examples
 * run in order, in one folder).
 *
 * Every other shell block says why it cannot run here, in its fence's info string, after the
 * language: ```` ```sh not-run: needs Docker ````. GitHub and the served guides show only the
 * language; this test fails on a shell command it can neither run nor finds excused so.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/ports.js'
import { CLI } from '../support/spawn-service.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BUNDLED = join(ROOT, 'data/records.json')
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'packages/client/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const LOCAL = /https?:\/\/(?:localhost|127\.0\.0\.1):8080\b/g
const PUBLIC = /https:\/\/records\.example\.org\b/g
/** The CLI's commands that only read from a service (and write their own output files). */
const READING_COMMANDS = /^(?:npx )?reference-records (?:search|get|catalogue|dump|sync|--version)\b/

/** A file an earlier example wrote, checked as the docs say. */
const CHECKS = /^sha256sum \.\/[\w./-]+$/

type Example = { file: string; line: number; command: string }
type Excused = Example & { reason: string }

/** Whether this test runs `command`: a request to the documented addresses, a reading command, a check. */
function runnable(command: string): boolean {
  const runs =
    (/^curl /.test(command) && (LOCAL.test(command) || PUBLIC.test(command))) ||
    READING_COMMANDS.test(command) ||
    CHECKS.test(command)
  LOCAL.lastIndex = PUBLIC.lastIndex = 0
  return runs
}

/**
 * The commands of the shell code blocks (fenced `sh`, `bash`, `shell` or untagged), one per logical
 * line: those this test runs, those of a block marked `not-run: reason`, and the rest, which are
 * neither (a failure).
 */
function examples(): { found: Example[]; excused: Excused[]; unaccounted: Example[] } {
  const found: Example[] = []
  const excused: Excused[] = []
  const unaccounted: Example[] = []
  for (const file of DOCUMENTS) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    for (const block of text.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```/gm)) {
      if (!['', 'sh', 'bash', 'shell'].includes(block[1]!)) continue
      const reason = /^\s+not-run:\s*(\S.*)$/.exec(block[2]!)?.[1]
      const startLine = text.slice(0, block.index).split('\n').length + 1
      const lines = block[3]!.split('\n')
      for (let i = 0; i < lines.length; i++) {
        let command = lines[i]!
        const line = startLine + i
        while (command.endsWith('\\') && i + 1 < lines.length)
          command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`
        command = withoutComment(command).trim()
        if (command === '') continue
        const example = { file, line, command }
        if (runnable(command)) found.push(example)
        else if (reason !== undefined) excused.push({ ...example, reason })
        else unaccounted.push(example)
      }
    }
  }
  return { found, excused, unaccounted }
}

/** A trailing `# comment` (after white space, outside quotes). */
function withoutComment(command: string): string {
  let quote: string | undefined
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (quote !== undefined) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && /\s/.test(command[i - 1] ?? '')) return command.slice(0, i)
  }
  return command
}

let local: TestServer
let publicOrigin: TestServer
let workDir: string
beforeAll(async () => {
  // The example public origin is a service whose PUBLIC_BASE_URL is its own address, so its
  // absolute links (307s, the sitemap, the Atom feed) lead back to it.
  const port = await freePort()
  ;[local, publicOrigin] = await Promise.all([
    startTestServer({ RECORDS_FILE: BUNDLED }),
    startTestServer({
      RECORDS_FILE: BUNDLED,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    }),
  ])
  workDir = mkdtempSync(join(tmpdir(), 'rr-doc-examples-'))
})
afterAll(async () => {
  await Promise.all([local?.close(), publicOrigin?.close()])
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true })
})

function run(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const rewritten = command
    .replace(LOCAL, local.url)
    .replace(PUBLIC, publicOrigin.url)
    .replace(/^(?:npx )?reference-records /, `node ${CLI} `)
  const script = `set -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n${rewritten}\n`
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['-c', script],
      {
        cwd: workDir,
        timeout: 30_000,
        env: { PATH: process.env.PATH, REFERENCE_RECORDS_URL: local.url, HOME: workDir },
        maxBuffer: 64 << 20,
      },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : Number(err.code ?? 1), stdout, stderr }),
    ),
  )
}

const { found, excused, unaccounted } = examples()

describe('the shell examples of the docs', () => {
  it('are found: the API examples and the command line', () => {
    expect(found.length).toBeGreaterThanOrEqual(20)
    const commands = found.map((e) => e.command)
    expect(commands.some((c) => c.includes('/api/v1/changes?since='))).toBe(true)
    expect(commands.some((c) => c.includes('verification-age'))).toBe(true)
    expect(commands.some((c) => /^(npx )?reference-records search/.test(c))).toBe(true)
  })

  it('are each run here, or marked with why not (not-run: needs Docker, PostgreSQL, another host…)', () => {
    const where = (e: Example) => `${e.file}:${e.line}: ${e.command}`
    expect(unaccounted.map(where)).toEqual([])
    // A reason says what is missing here, in a few words, not merely that it is skipped.
    for (const e of excused) expect(e.reason, where(e)).toMatch(/\w+ \w+/)
    expect(excused.length).toBeGreaterThan(0)
  })

  it('use the documented port, and plain HTTP for a replica', () => {
    for (const file of DOCUMENTS) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      // Bench and scale runs pick their own ports, as their records say.
      if (!['docs/scale.md', 'docs/benchmarks.md'].includes(file))
        for (const m of text.matchAll(/\bhttps?:\/\/(?:localhost|127\.0\.0\.1):(\d+)/g))
          expect(m[1], `${file}: ${m[0]} (every example uses 8080, the default port)`).toBe('8080')
      // A replica listens on plain HTTP (TLS ends at the load balancer, which listens on 443).
      expect(text, file).not.toMatch(/https:\/\/[^\s/'"]+:8080\b/)
    }
  })

  it.each(found.map((e) => [`${e.file}:${e.line}`, e] as const))(
    '%s runs as written',
    async (_where, example) => {
      const result = await run(example.command)
      expect(result.code, `${example.command}\n${result.stderr}${result.stdout.slice(0, 2000)}`).toBe(0)
      if (!/\s-o\s|--out\s/.test(example.command)) expect(result.stdout.trim(), example.command).not.toBe('')
    },
  )
})
