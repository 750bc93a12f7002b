/**
 * `reference-records serve` refusing to start: each failure is one plain line on stderr naming what
 * to fix, with the exit code that `serve --help` and docs/operations.md list.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SERVE_EXIT, SERVE_EXIT_CODES_HELP } from '../../src/cli/serve.js'
import { CLI, listeningUrl, spawnCli } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const dir = mkdtempSync(join(tmpdir(), 'startup-'))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** Runs `serve` to its exit (it must not start) and returns the exit code and stderr. */
async function refusedStart(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, stderr }
}

describe('serve refuses to start, in one line naming what to fix', () => {
  it('a port in use: exit 4', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      expect(await refusedStart(['--port', String(port), '--records-file', SMALL_FIXTURE])).toEqual({
        code: SERVE_EXIT.listen,
        stderr:
          `reference-records serve: cannot listen on 127.0.0.1:${port}: the port is already in use (another server?); ` +
          'stop it, or choose another port with --port or PORT\n',
      })
    } finally {
      taken.close()
    }
  })

  it('a host name that does not resolve: exit 4', async () => {
    expect(await refusedStart(['--host', 'no-such-host.invalid', '--records-file', SMALL_FIXTURE])).toEqual({
      code: SERVE_EXIT.listen,
      stderr:
        'reference-records serve: cannot listen on no-such-host.invalid:0: the host name "no-such-host.invalid" does not resolve; ' +
        'set --host or HOST to an address (127.0.0.1, 0.0.0.0, ::) or a name of this machine\n',
    })
  })

  it('a missing records file, named by its absolute path even when given a relative one: exit 3', async () => {
    expect(await refusedStart([], { RECORDS_FILE: 'records/missing.json' }, dir)).toEqual({
      code: SERVE_EXIT.records,
      stderr: `reference-records serve: records: file:${join(dir, 'records/missing.json')}: cannot read the file: no such file (ENOENT)\n`,
    })
  })

  it('a JSON object that is not records: exit 3', async () => {
    const path = file('foo.json', '{"foo":1}\n')
    expect(await refusedStart(['--records-file', path])).toEqual({
      code: SERVE_EXIT.records,
      stderr:
        `reference-records serve: records: file:${path}: expected a JSON array of records, NDJSON (one record per line) ` +
        'or {"records": [...]}; found a JSON object with the key "foo"\n',
    })
  })

  it("a syntax error in a pretty-printed file, at the parser's line and column: exit 3", async () => {
    const lines = JSON.stringify(JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')), null, 2).split('\n')
    const end = lines.indexOf('  },') // the end of the first record: a comma left after its last field
    lines[end - 1] += ','
    const path = file('pretty.json', lines.join('\n'))
    const { code, stderr } = await refusedStart(['--records-file', path])
    expect(code).toBe(SERVE_EXIT.records)
    expect(stderr).toBe(
      `reference-records serve: records: file:${path}: line ${end + 1}, column 3: not valid JSON (Expected double-quoted property name)\n`,
    )
  })

  it('lists its exit codes in --help, as docs/operations.md does', async () => {
    const help = spawnCli(['serve', '--help'])
    expect(await help.exited).toBe(0)
    expect(help.stdout()).toContain(SERVE_EXIT_CODES_HELP)
    // Table cells compared without the padding Prettier aligns columns with.
    const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8').replace(
      / *\| */g,
      ' | ',
    )
    for (const line of SERVE_EXIT_CODES_HELP.split('\n').slice(1)) {
      const [, code, meaning] = /^ {2}(\d) {2}(.*)$/.exec(line)!
      expect(operations, `exit code ${code}`).toContain(`| ${code} | ${meaning} |`)
    }
  })
})

describe('an empty records file', () => {
  it('starts, ready with 0 records, and says so in a warning', async () => {
    const service = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
      RECORDS_FILE: file('empty.json', '[]'),
      LOG_LEVEL: 'info',
    })
    try {
      const url = await listeningUrl(service)
      expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', records: 0 })
      const warning = service
        .stdout()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { level: number; msg: string; records?: number })
        .find((l) => l.level === 40)
      expect(warning).toMatchObject({
        msg: 'the records source holds no records; the service answers with an empty catalogue',
        records: 0,
      })
    } finally {
      service.child.kill('SIGTERM')
      await service.exited
    }
  })
})
