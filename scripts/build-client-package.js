/**
 * Builds packages/client (the `reference-records-client` package) from src/client, the same sources
 * as the main package's `reference-records/client` entry: a fresh dist/ compiled by the repository's
 * TypeScript, and the repository's LICENSE beside it. `npm run pack:client` then packs it.
 *
 * It refuses to build when the two package.json files disagree on the version, so the client
 * published beside a release always says which service release it was built with.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const packageDir = join(root, 'packages', 'client')
const versionOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version

const [main, client] = [versionOf(root), versionOf(packageDir)]
if (main !== client) {
  console.error(
    `packages/client/package.json has version ${client}, package.json ${main}: give both the same version`,
  )
  process.exit(1)
}

rmSync(join(packageDir, 'dist'), { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json')], { stdio: 'inherit' })
copyFileSync(join(root, 'LICENSE'), join(packageDir, 'LICENSE'))
