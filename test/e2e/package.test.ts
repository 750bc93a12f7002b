/**
 * The package as a user installs it without a registry release: `npm pack`, then a global install
 * of the tarball into a temporary prefix, then the installed command. The install needs the npm
 * registry for dependency metadata (npm's cache holds the tarballs but not always the metadata); where
 * npm cannot reach it, the install test says SKIPPED (a failure under CI).
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { listeningUrl, type Spawned } from '../support/spawn-service.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  scripts: Record<string, string>
}
const work = mkdtempSync(join(tmpdir(), 'package-'))

type Result = { code: number; stdout: string; stderr: string }
const run = (command: string, args: string[], timeout = 120_000) =>
  new Promise<Result>((resolve) =>
    execFile(command, args, { cwd: ROOT, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  )

let tarball: string
let files: string[]
beforeAll(async () => {
  // --ignore-scripts: dist/ is already built by `npm test` (prepack would rebuild it under other running tests).
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work])
  expect(packed.code, packed.stderr).toBe(0)
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[]
  tarball = join(work, info!.filename)
  files = info!.files.map((f) => f.path)
}, 60_000)

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
})

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
    if (install.code !== 0) {
      const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENOTCACHED|ETIMEDOUT|network/i.test(install.stderr)
      if (!offline || process.env.CI) throw new Error(`npm install of the tarball failed:\n${install.stderr}`)
      console.warn(
        'SKIPPED: installing the packed tarball needs the npm registry, which npm cannot reach here',
      )
      ctx.skip()
    }
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
})
