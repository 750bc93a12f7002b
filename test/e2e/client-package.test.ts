/**
 * The client package (packages/client, `reference-records-client`) as a user gets it: packed with
 * `npm run pack:client`, installed from the tarball into an empty project with no registry (it has no
 * dependencies, so npm needs nothing but the tarball), compiled by the repository's TypeScript in the
 * strictest settings a user may have (`strict`, `exactOptionalPropertyTypes`, `skipLibCheck: false`,
 * NodeNext), and run against a running service. Issue 31, item 4: installing the main package to use
 * its /client entry brought 107 packages (68 MB), and `@types/markdown-it` in them broke such a build.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningUrl, spawnCli, type Spawned } from '../support/spawn-service.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const FIXTURE = join(ROOT, 'test', 'fixtures', 'records.small.json')
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const work = mkdtempSync(join(tmpdir(), 'client-package-'))
const project = join(work, 'project')

type Result = { code: number; stdout: string; stderr: string }
const run = (command: string, args: string[], cwd: string, timeout = 120_000) =>
  new Promise<Result>((resolve) =>
    execFile(command, args, { cwd, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
    ),
  )

/** What the user writes: only the client, so it compiles for a browser as for Node. */
const APP = `import { NotFoundError, RecordsClient, type Fact } from 'reference-records-client'

export async function report(baseUrl: string) {
  const client = new RecordsClient({ baseUrl, maxRetries: 0 })
  const catalogue = await client.catalogue()
  const page = await client.search({ q: 'vitesse', kind: 'fact' })
  const record: Fact = await client.get('fait-643b555e754f953d')
  const ids: string[] = []
  for await (const fact of client.all({ kind: 'lesson' })) ids.push(fact.id)
  let missing = ''
  try {
    await client.get('fait-0000000000000000')
  } catch (error) {
    if (error instanceof NotFoundError) missing = error.code
  }
  return { total: catalogue.records.total, found: page.results.map((r) => r.id), title: record.title, lessons: ids.sort(), missing }
}
`
const MAIN = `import { report } from './app.js'

console.log(JSON.stringify(await report(process.argv[2] ?? '')))
`
const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2023',
}

let packed: {
  filename: string
  files: { path: string }[]
  size: number
  unpackedSize: number
  entryCount: number
}
let installed: Result
let service: Spawned
beforeAll(async () => {
  const pack = await run(
    'npm',
    ['run', '-s', 'pack:client', '--', '--json', '--pack-destination', work],
    ROOT,
  )
  expect(pack.code, pack.stderr).toBe(0)
  packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as (typeof packed)[])[0]!

  mkdirSync(project)
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'strict-user', version: '1.0.0', private: true, type: 'module' }),
  )
  // --offline: npm may not ask the registry anything, so a dependency would fail the install.
  installed = await run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)],
    project,
  )
  writeFileSync(join(project, 'app.ts'), APP)
  writeFileSync(join(project, 'main.ts'), MAIN)
  service = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1', '--records-file', FIXTURE])
}, 240_000)
afterAll(async () => {
  service?.child.kill('SIGTERM')
  await service?.exited
  rmSync(work, { recursive: true, force: true })
})

describe('npm run pack:client', () => {
  it('is as large as docs/client.md and its README say: the tarball, unpacked, and its files', () => {
    // The figures went stale once (issue 44: "18 kB" for a 22.3 kB tarball). npm prints kB of 1 000
    // bytes with one decimal; a tenth either way leaves room for the README's own edits.
    const kB = (bytes: number) => bytes / 1000
    for (const doc of ['docs/client.md', 'packages/client/README.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8')
      const [, unpacked, tarball, files] =
        /([\d.]+) kB unpacked, a ([\d.]+) kB tarball, (\d+) files/.exec(text) ?? []
      expect(unpacked, `${doc} states the package's sizes`).toBeDefined()
      expect(Math.abs(Number(unpacked) - kB(packed.unpackedSize)), `${doc}: unpacked`).toBeLessThanOrEqual(
        0.15,
      )
      expect(Math.abs(Number(tarball) - kB(packed.size)), `${doc}: tarball`).toBeLessThanOrEqual(0.15)
      expect(Number(files), `${doc}: files`).toBe(packed.entryCount)
    }
  })

  it(`packs reference-records-client ${version}: the compiled client, its types, the license, no tests`, () => {
    expect(packed.filename).toBe(`reference-records-client-${version}.tgz`)
    const paths = packed.files.map((f) => f.path)
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']))
    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/client.js']))
    const others = paths.filter((p) => !['package.json', 'README.md', 'LICENSE'].includes(p))
    expect(others.filter((p) => !/^dist\/[\w-]+\.(js|d\.ts)$/.test(p))).toEqual([])
    expect(others.filter((p) => /\.test\./.test(p))).toEqual([])
  })
})

// Each test runs npm and tsc in a project of its own: 22 s of a 30 s timeout at load average 15. The
// timeout guards against a hang (each command has its own 120 s one), not against a busy machine.
describe('installed from the tarball into an empty project, without a registry', { timeout: 240_000 }, () => {
  const manifest = () =>
    JSON.parse(
      readFileSync(join(project, 'node_modules', 'reference-records-client', 'package.json'), 'utf8'),
    ) as Record<string, unknown>

  it('installs exactly one package: no dependency of any kind', () => {
    expect(installed.code, installed.stderr).toBe(0)
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>
    }
    expect(Object.keys(lock.packages).filter((path) => path !== '')).toEqual([
      'node_modules/reference-records-client',
    ])
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([
      'reference-records-client',
    ])
    const pkg = manifest()
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(pkg[field], field).toBeUndefined()
  })

  it('declares ESM, its types in exports, its Node engines and the service version', () => {
    expect(manifest()).toMatchObject({
      name: 'reference-records-client',
      version,
      type: 'module',
      engines: { node: '>=20.19.0' },
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    })
  })

  it('imports nothing but its own files and Node built-ins, in its code and its types', () => {
    const dist = join(project, 'node_modules', 'reference-records-client', 'dist')
    const specifiers = readdirSync(dist).flatMap((file) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/(?:\bfrom|\bimport\(?)\s*['"]([^'"]+)['"]/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    )
    expect(specifiers.length).toBeGreaterThan(10)
    expect(specifiers.filter((s) => !/: (\.\/[\w-]+\.js|node:[\w/]+)$/.test(s))).toEqual([])
  })

  it('compiles in a strict browser project: DOM types, no @types at all', async () => {
    writeFileSync(
      join(project, 'tsconfig.browser.json'),
      JSON.stringify({
        compilerOptions: { ...STRICT, lib: ['ES2023', 'DOM'], types: [], noEmit: true },
        files: ['app.ts'],
      }),
    )
    const compiled = await run(process.execPath, [TSC, '-p', 'tsconfig.browser.json'], project)
    expect(compiled, compiled.stdout).toMatchObject({ code: 0 })
  })

  it('compiles in a strict Node project and runs against the service', async () => {
    // The user's own @types/node, as a Node project has it (read from the repository's, offline).
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...STRICT,
          lib: ['ES2023'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
          outDir: 'out',
        },
        files: ['app.ts', 'main.ts'],
      }),
    )
    const compiled = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project)
    expect(compiled, compiled.stdout).toMatchObject({ code: 0 })

    const url = await listeningUrl(service)
    const ran = await run(process.execPath, [join('out', 'main.js'), `${url}/api/v1`], project)
    expect(ran.code, ran.stderr).toBe(0)
    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { id: string; kind: string; title: string }[]
    expect(JSON.parse(ran.stdout)).toEqual({
      total: fixture.length,
      found: ['fait-643b555e754f953d'],
      title: fixture.find((r) => r.id === 'fait-643b555e754f953d')!.title,
      lessons: fixture
        .filter((r) => r.kind === 'lesson')
        .map((r) => r.id)
        .sort(),
      missing: 'not_found',
    })
  })
})
