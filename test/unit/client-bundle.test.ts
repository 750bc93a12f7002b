/**
 * `reference-records/client` stands alone: bundled for a browser, it pulls in nothing but its own
 * files. The metafile lists every input esbuild read, so a stray import (even of a type-only module
 * that turned into a value import) of zod, the server or its logging and metrics shows up here.
 */
import { fileURLToPath } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { beforeAll, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ENTRY = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))
const FORBIDDEN = ['zod', 'fastify', 'pino', 'prom-client']

let metafile: Metafile
let bytes: number
beforeAll(async () => {
  const result = await build({
    entryPoints: [ENTRY],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  metafile = result.metafile
  bytes = result.outputFiles[0]!.contents.byteLength
})

it('bundles for the browser from src/client alone', () => {
  const inputs = Object.keys(metafile.inputs)
  expect(inputs.length).toBeGreaterThanOrEqual(1)
  expect(inputs.filter((path) => !path.startsWith('src/client/'))).toEqual([])
})

it.each(FORBIDDEN)('includes no byte of %s', (name) => {
  const fromPackage = Object.keys(metafile.inputs).filter((path) => path.includes(`node_modules/${name}/`))
  expect(fromPackage).toEqual([])
  // Nor as an import left for the bundle's user to resolve.
  const outputs = Object.values(metafile.outputs)
  expect(
    outputs
      .flatMap((o) => o.imports.map((i) => i.path))
      .filter((path) => path === name || path.startsWith(`${name}/`)),
  ).toEqual([])
})

it('stays small', () => {
  // 16 KB when this test was written; a jump means something heavy came in.
  expect(bytes).toBeLessThan(64 * 1024)
})
