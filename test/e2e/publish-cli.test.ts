/** The publishing commands as an operator runs them (the built binary), against a real PostgreSQL. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { createTestSchema, postgresAvailable, type TestSchema } from '../support/postgres.js'
import { spawnCli } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const available = await postgresAvailable()
const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const dir = mkdtempSync(join(tmpdir(), 'rr-publish-'))
const file = (name: string, records: unknown[]) => {
  const path = join(dir, name)
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return path
}

// Each command is a new Node process (seconds each on a busy machine): a generous timeout.
describe.runIf(available)('reference-records publish, snapshots, rollback, db', { timeout: 90_000 }, () => {
  let schema: TestSchema
  let run: (
    args: string[],
    env?: Record<string, string>,
  ) => Promise<{ code: number | null; stdout: string; stderr: string }>
  beforeAll(async () => {
    schema = await createTestSchema('rr_cli')
    run = async (args, env = { DATABASE_URL: schema.url }) => {
      const spawned = spawnCli(args, env)
      const code = await spawned.exited
      return { code, stdout: spawned.stdout(), stderr: spawned.stderr() }
    }
  })
  afterAll(() => schema?.drop())

  it('publishes nothing from a file with one bad record, naming the record, the field and the problem', async () => {
    const bad = file(
      'bad.ndjson',
      fixture.map((r, i) => (i === 7 ? { ...r, verified_at: 'yesterday' } : r)),
    )
    const result = await run(['publish', bad])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      new RegExp(`^reference-records publish: records: file:${bad}: 1 problem\\(s\\)`),
    )
    expect(result.stderr).toContain(`line 8 (id "${fixture[7]!.id}"): field "verified_at": `)
    expect(result.stderr).toMatch(/\nNothing was published\.\n$/)
    expect(await run(['snapshots'])).toEqual({ code: 0, stdout: 'No snapshot published yet.\n', stderr: '' })
  })

  it('shows the changes with --dry-run and writes nothing, then publishes', async () => {
    const good = file('good.ndjson', fixture)
    const dry = await run(['publish', good, '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toBe(
      [
        `Checked ${good}: ${fixture.length} records, all valid.`,
        'Database schema at version 0: publishing will upgrade it to 1.',
        'Current snapshot: none (nothing published yet).',
        'Changes:',
        `  +     13 added     ${fixture
          .map((r) => r.id)
          .sort()
          .slice(0, 5)
          .join(', ')}, … and 8 more`,
        '  ~      0 changed',
        '  -      0 removed',
        '  =      0 unchanged',
        'Dry run: nothing written.',
        '',
      ].join('\n'),
    )
    expect((await run(['snapshots'])).stdout).toBe('No snapshot published yet.\n')
    const published = await run(['publish', good, '--note', 'first'])
    expect(published.code).toBe(0)
    expect(published.stdout).toContain('Database schema upgraded from version 0 to 1.\n')
    expect(published.stdout).toMatch(
      /\nPublished snapshot 1 \(13 records, checksum [0-9a-f]{12}\) at \S+Z, publication 1; replicas notified\.\n$/,
    )
    expect(await run(['publish', good])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /\nNothing to publish: snapshot 1 already has exactly these records\.\n$/,
      ),
    })
  })

  it('publishes a change, lists the snapshots, and rolls back with a new publication', async () => {
    const changed = file(
      'changed.ndjson',
      [...fixture.slice(1), { ...fixture[1]!, title: 'Changé' }].filter((r, i) => i !== 0),
    )
    const second = await run(['publish', changed, '--note', 'second'])
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(
      `  ~      1 changed   ${fixture[1]!.id}\n  -      1 removed   ${fixture[0]!.id}\n`,
    )
    const listed = await run(['snapshots'])
    expect(listed.stdout).toMatch(
      /^ID {2}PUBLISHED {17}RECORDS {2}CHECKSUM {6}STATE {4}NOTE\n 2 {2}\S+ {7}12 {2}[0-9a-f]{12} {2}current {2}second\n 1 {2}\S+ {7}13 {2}[0-9a-f]{12} {2}kept {5}first\n$/,
    )
    const rollback = await run(['rollback', '1', '--note', 'second was wrong'])
    expect(rollback.code).toBe(0)
    expect(rollback.stdout).toContain(
      `Rolling back to snapshot 1.\nChanges:\n  +      1 added     ${fixture[0]!.id}\n  ~      1 changed   ${fixture[1]!.id}\n`,
    )
    expect(rollback.stdout).toMatch(
      /\nSnapshot 1 is current again \(13 records, checksum [0-9a-f]{12}\) at \S+Z, publication 3; replicas notified\.\n$/,
    )
    expect(await run(['rollback', '1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'reference-records rollback: snapshot 1 is already current\n',
    })
    const snapshots = JSON.parse((await run(['snapshots', '--json'])).stdout) as Record<string, unknown>[]
    expect(snapshots.map((x) => [x.id, x.state, x.record_count, x.note])).toEqual([
      [2, 'kept', 12, 'second'],
      [1, 'current', 13, 'first'],
    ])
    expect(Object.keys(snapshots[0]!).every((key) => /^[a-z_]+$/.test(key))).toBe(true) // snake_case, as the API
    // The rollback's note is read back with its publication.
    const publications = await run(['publications'])
    expect(publications.stdout).toMatch(
      /^ID {2}PUBLISHED {17}ACTION {4}SNAPSHOT {2}STATE {4}NOTE\n 3 {2}\S+Z {2}rollback {9}1 {2}current {2}second was wrong\n 2 {2}\S+Z {2}publish {10}2 {11}second\n 1 {2}\S+Z {2}publish {10}1 {11}first\n$/,
    )
    const asJson = JSON.parse((await run(['publications', '--json', '--limit', '1'])).stdout) as unknown[]
    expect(asJson).toEqual([
      {
        id: 3,
        action: 'rollback',
        snapshot_id: 1,
        published_at: expect.stringMatching(/Z$/) as unknown,
        current: true,
        note: 'second was wrong',
      },
    ])
    expect(await run(['db', 'migrate'])).toEqual({
      code: 0,
      stdout: 'Database schema already at version 1; nothing to do.\n',
      stderr: '',
    })
  })

  it('refuses to run without a database, or with a bad option, with exit 2', async () => {
    const none = await run(['publish', SMALL_FIXTURE], {})
    expect(none.code).toBe(2)
    expect(none.stderr).toBe(
      'reference-records publish: no database: set DATABASE_URL or give --database-url (e.g. postgres://user@db.example:5432/records)\n' +
        'Run "reference-records publish --help" for usage.\n',
    )
    expect((await run(['publish', SMALL_FIXTURE, '--keep', '0'])).stderr).toContain(
      '--keep must be a whole number of snapshots, at least 1, got "0"',
    )
    expect((await run(['rollback', 'latest'])).stderr).toContain(
      'expected a snapshot id (a whole number), got "latest"',
    )
    const unreachable = await run(['snapshots'], {
      DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none',
    })
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toMatch(
      /^reference-records snapshots: cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/none \(.*ECONNREFUSED.*\)\n$/,
    )
    expect(unreachable.stderr).not.toContain('secret')
  })
})
