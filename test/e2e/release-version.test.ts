/**
 * One release, one version: package.json, the lock file, the client package, `--version`, the
 * discovery documents and a dated CHANGELOG section say the same; the OpenAPI document's
 * `info.version` is the API's own version, which moves only with the contract.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { API_VERSION } from '../../src/core/api/schemas.js'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const versionOf = (path: string) => (JSON.parse(read(path)) as { version: string }).version
const VERSION = versionOf('package.json')

describe('the release version', () => {
  it('is a semantic version, the same in the lock file and the client package', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/)
    const lock = JSON.parse(read('package-lock.json')) as {
      version: string
      packages: Record<string, { version?: string }>
    }
    expect(lock.version).toBe(VERSION)
    expect(lock.packages['']!.version).toBe(VERSION)
    expect(versionOf('packages/client/package.json')).toBe(VERSION)
  })

  it('is what the command prints', () => {
    const cli = new URL('dist/cli/main.js', root).pathname
    for (const flag of ['--version', '-v'])
      expect(execFileSync(process.execPath, [cli, flag], { encoding: 'utf8' }).trim()).toBe(
        `reference-records ${VERSION}`,
      )
  })

  it('has a dated section in the CHANGELOG, below Unreleased, above every older release', () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](?: - (\S+))?$/gm)].map((m) => ({
      name: m[1]!,
      date: m[2],
    }))
    expect(headings[0]?.name).toBe('Unreleased')
    const releases = headings.slice(1)
    expect(releases[0]?.name, 'the newest release section').toBe(VERSION)
    for (const { name, date } of releases) {
      expect(date, name).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), name).toBe(date)
    }
    const dates = releases.map((r) => r.date!)
    expect(dates, 'newest first').toEqual([...dates].sort().reverse())
  })

  it('leaves the OpenAPI document at the API version, which has a version of its own', () => {
    const committed = JSON.parse(read('docs/openapi.json')) as { info: { version: string } }
    expect(committed.info.version).toBe(API_VERSION)
    expect(API_VERSION).toBe('1.4.0')
  })
})
