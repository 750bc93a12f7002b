/**
 * The command line as a new user meets it (issue 15): usage and versions, mistyped commands and
 * options, messages in the command's words, a service given by its address, closed pipes, waits
 * that are never silent, a terminal that is never garbled, and how a search was read.
 * The built binary runs in a child process, against the real service or a scripted one.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer } from '../../src/service/service.js'
import { apiError, envelope, fakeFact, json, useScriptedServers } from '../support/scripted-server.js'
import { CLI } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

type Run = { code: number; stdout: string; stderr: string }

/** Runs the built command with only PATH (and what `env` adds) in its environment. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** Runs the command with its stdout read end closed before anything is written: every write meets EPIPE. */
function cliIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c))
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })))
}

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version

let server: RunningServer
let origin: string
beforeAll(async () => {
  server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RECORDS_FILE: SMALL_FIXTURE, LOG_LEVEL: 'silent' }),
  )
  origin = server.url
})
afterAll(() => server?.close())

describe('usage, version, mistakes', () => {
  it('a bare command is a usage error: usage on stderr, exit 2', async () => {
    const run = await cli([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /^reference-records: a command is needed\.\n\nUsage: reference-records <command> \[options\]/,
    )
  })

  it('usage asked for goes to stdout with exit 0, for the command or one of its commands', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await cli(args)
      expect(run, args.join(' ')).toMatchObject({ code: 0, stderr: '' })
      expect(run.stdout).toMatch(/^Usage: reference-records <command> \[options\]/)
    }
    const run = await cli(['help', 'search'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(/^Usage: reference-records search /)
  })

  it('--version prints the package version', async () => {
    expect(await cli(['--version'])).toEqual({
      code: 0,
      stdout: `reference-records ${version}\n`,
      stderr: '',
    })
    expect(await cli(['-v'])).toEqual({ code: 0, stdout: `reference-records ${version}\n`, stderr: '' })
  })

  it('a mistyped command gets a suggestion', async () => {
    expect(await cli(['serch', 'vitesse'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reference-records: unknown command "serch"; did you mean "search"?\nRun "reference-records --help" for the commands.\n',
    })
    expect((await cli(['frobnicate'])).stderr).toBe(
      'reference-records: unknown command "frobnicate"\nRun "reference-records --help" for the commands.\n',
    )
    expect((await cli(['--verison'])).stderr).toMatch(
      /^reference-records: unknown option "--verison"; did you mean "--version"\?\n/,
    )
  })

  it('an unknown option is named in our words, with the near one', async () => {
    expect(await cli(['search', 'x', '--kindd', 'fact'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reference-records search: unknown option --kindd; did you mean --kind?\nRun "reference-records search --help" for usage.\n',
    })
    expect((await cli(['dump', '--out'])).stderr).toBe(
      'reference-records dump: option --out needs a value, e.g. --out VALUE\nRun "reference-records dump --help" for usage.\n',
    )
  })
})

describe("messages in the command's terms", () => {
  const scripted = useScriptedServers()

  it('get refuses a malformed id before any request, without the API\'s "Path parameter"', async () => {
    const service = await scripted()
    const run = await cli(['get', 'nope', '--base-url', `${service.url}/api/v1`])
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reference-records get: "nope" is not a record id: an id must be a prefix (fait-, expertise-fait-, page-, brand-, offer-, person-) ' +
        'and 16 lowercase hex digits, e.g. fait-643b555e754f953d\nRun "reference-records get --help" for usage.\n',
    })
    expect(service.log).toEqual([])
  })

  it('search echoes a bad --kind and lists the kinds', async () => {
    expect((await cli(['search', '--kind', 'lessons'])).stderr).toBe(
      'reference-records search: --kind "lessons": must be one of fact, expertise, organization, offer, person, article, lesson, page, tool\n' +
        'Run "reference-records search --help" for usage.\n',
    )
  })

  it('dump --out names the file given, not the temporary one', async () => {
    const run = await cli(['dump', '--out', '/missing/dir/x.ndjson', '--base-url', `${origin}/api/v1`])
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'reference-records dump: cannot write /missing/dir/x.ndjson: its folder /missing/dir does not exist\n',
    })
    const folder = mkdtempSync(join(tmpdir(), 'dump-out-'))
    expect((await cli(['dump', '--out', folder, '--base-url', `${origin}/api/v1`])).stderr).toBe(
      `reference-records dump: cannot write ${folder}: it is a folder\n`,
    )
  })
})

describe('a service given by its address', () => {
  const scripted = useScriptedServers()

  it('finds the API root from the origin the server logs at start', async () => {
    const byRoot = await cli(['search', 'vitesse', '--base-url', `${origin}/api/v1`])
    const byOrigin = await cli(['search', 'vitesse', '--base-url', origin])
    expect(byRoot.code).toBe(0)
    expect(byOrigin).toEqual(byRoot)
    expect(
      await cli(['get', 'fait-643b555e754f953d', '--json'], { REFERENCE_RECORDS_URL: `${origin}/` }),
    ).toMatchObject({ code: 0, stderr: '' })
  })

  it('asks the catalogue once, then reads the API root it found', async () => {
    const catalogue = { links: { self: '/api/v1/' }, records: { total: 1 } }
    const service = await scripted(json(catalogue), json(envelope([fakeFact(1)], 1)))
    expect((await cli(['search', '--json', '--base-url', service.url])).code).toBe(0)
    expect(service.log).toEqual(['GET /api/v1/?po_live=1', 'GET /api/v1/facts?po_live=1&limit=10&offset=0'])
  })

  it('says plainly when no API answers there', async () => {
    const service = await scripted(
      apiError(404, 'not_found', 'No such path'),
      apiError(404, 'not_found', 'No such path'),
    )
    const run = await cli(['catalogue', '--base-url', `${service.url}/records`])
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `reference-records catalogue: --base-url "${service.url}/records": no records API there ` +
        `(${service.url}/records/api/v1/ answered 404; ${service.url}/records/ answered 404). ` +
        'Give the API root, the address ending in /api/v1, e.g. http://127.0.0.1:8080/api/v1\n' +
        'Run "reference-records catalogue --help" for usage.\n',
    })
  })
})

describe('a closed pipe is a normal end', () => {
  it.each([
    ['dump', ['dump']],
    ['search --json --limit 50', ['search', '--json', '--limit', '50']],
    ['catalogue', ['catalogue']],
  ])('%s: exit 0, nothing printed', async (_name, args) => {
    expect(await cliIntoClosedPipe([...args, '--base-url', origin])).toEqual({ code: 0, stderr: '' })
  })

  it('dump | head -1 in a shell', async () => {
    const run = await new Promise<Run>((resolve) =>
      execFile(
        'bash',
        ['-o', 'pipefail', '-c', `"${process.execPath}" "${CLI}" dump --base-url ${origin} | head -1`],
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    )
    expect(run.code).toBe(0)
    // Quiet when the closed pipe stopped it; its one summary line when every record fit in the pipe first.
    expect(run.stderr).toMatch(/^(reference-records dump: 13 records written in [\d.]+ s\n)?$/)
    expect(JSON.parse(run.stdout)).toMatchObject({ id: expect.any(String) })
  })
})

describe('waits are never silent', () => {
  const scripted = useScriptedServers()

  it('prints each retry with its reason and wait on stderr', async () => {
    const service = await scripted(
      apiError(429, 'rate_limited', 'Too many requests', { 'retry-after': '0' }),
      apiError(503, 'unavailable', 'Loading records', { 'retry-after': '0' }),
      json(envelope([fakeFact(1)], 1)),
    )
    const run = await cli(['search', '--json', '--base-url', `${service.url}/api/v1`])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(
      'reference-records search: rate limited (429): Too many requests; retry 1 of 3 in 0 s\n' +
        'reference-records search: service unavailable (503): Loading records; retry 2 of 3 in 0 s\n',
    )
  })
})

describe('dump and the terminal', () => {
  /** Runs a shell command inside a pseudo-terminal (util-linux `script`), as typed in a terminal. */
  const inTerminal = (command: string) =>
    new Promise<Buffer>((resolve, reject) =>
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { encoding: 'buffer', env: { PATH: process.env.PATH, TERM: 'xterm' } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    )
  const dump = `"${process.execPath}" "${CLI}" dump --kind lesson`

  it('to the terminal itself: the records, no bar, line wrapping untouched, then the summary line', async () => {
    const screen = await inTerminal(`${dump} --base-url ${origin}`)
    expect(screen.includes(0x1b)).toBe(false) // no escape sequence at all
    const lines = screen.toString('utf8').trim().split(/\r?\n/)
    expect(lines.at(-1)).toMatch(/^reference-records dump: 3 records written in [\d.]+ s$/)
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { kind: string }).kind)).toEqual([
      'lesson',
      'lesson',
      'lesson',
    ])
  })

  it('redirected to a file: the bar on the terminal', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'dump-tty-')), 'lessons.ndjson')
    const screen = (await inTerminal(`${dump} --base-url ${origin} > ${out}`)).toString('utf8')
    expect(screen).toContain('dump [')
    expect(screen).toContain('3/3 records')
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3)
  })
})

describe('how a search was read', () => {
  const scripted = useScriptedServers()
  const interpretation = {
    words: ['stationner', 'trottoir', 'agglo'],
    ignored: ['est', 'ce', 'que', 'on', 'peut'],
    corrected: [{ from: 'trotoir', to: 'trottoir' }],
    expanded: [],
    relaxed: [{ without: 'agglo', q: 'stationner trottoir', total: 12 }],
  }

  it('search --match best sends match=best, and shows which words the first records hold and what each lacks', async () => {
    const record = fakeFact(1)
    const best = {
      ...interpretation,
      relaxed: [],
      words: ['stationner', 'trottoir', 'agglo'],
      matched: ['stationner', 'trottoir'],
      left_out: ['agglo'],
      missing: [{ id: record.id, words: ['agglo'] }],
    }
    const service = await scripted(json({ ...envelope([record], 1, 0, 10), interpretation: best }))
    const run = await cli([
      'search',
      'stationner trottoir agglo',
      '--match',
      'best',
      '--base-url',
      `${service.url}/api/v1`,
    ])
    expect(run.code).toBe(0)
    expect(service.log).toEqual([
      `GET /api/v1/facts?po_live=1&q=stationner+trottoir+agglo&match=best&limit=10&offset=0`,
    ])
    expect(run.stdout).toContain(
      '  No record has every word: the first hold stationner, trottoir, not agglo; those after hold fewer',
    )
    expect(run.stdout).toContain('  Lacks: agglo')
  })

  it('search refuses a bad --match before any request, and sends no match when none is given', async () => {
    expect((await cli(['search', 'x', '--match', 'most'])).stderr).toBe(
      'reference-records search: --match "most": must be all or best\nRun "reference-records search --help" for usage.\n',
    )
    const service = await scripted(json(envelope([], 0, 0, 10)))
    await cli(['search', 'trottoir', '--base-url', `${service.url}/api/v1`])
    expect(service.log).toEqual([`GET /api/v1/facts?po_live=1&q=trottoir&limit=10&offset=0`])
  })

  it('shows the words ignored and corrected, and on no match the searches that would match', async () => {
    const service = await scripted(json({ ...envelope([], 0, 0, 10), interpretation }))
    const run = await cli([
      'search',
      "est-ce qu'on peut stationner sur le trotoir agglo",
      '--kind',
      'fact',
      '--base-url',
      `${service.url}/api/v1`,
    ])
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        `0 records match "est-ce qu'on peut stationner sur le trotoir agglo"`,
        '  Searched for: stationner trottoir agglo',
        '  Ignored (too common to search for): est, ce, que, on, peut',
        '  Corrected: trotoir → trottoir',
        '',
        'No record has every word. A word counts when a record holds it, one of its forms (stationner,',
        'stationnement) or an alias (moto, motocyclette), accents and case aside; it is not matched as the',
        'start of a longer word ("agglo" does not find "agglomération"): try whole words, or fewer of them.',
        '',
        'Without one word, these would match:',
        '  reference-records search stationner trottoir --kind fact   # 12 records, without "agglo"',
        '',
      ].join('\n'),
    })
  })
})
