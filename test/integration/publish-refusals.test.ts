/**
 * `publish` refuses, against a real PostgreSQL, every record a load refuses (issue 32: publishing
 * used to drop `__proto__`, store 1e400 as null and keep NUL and lone surrogates), and a file that
 * would remove more than a tenth of the current records unless --allow-removals; nothing refused
 * ever reaches the database. The command runs in-process: one Node start per case would take minutes.
 */
import { readFileSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPublish } from '../../src/cli/commands/publish.js'
import { runRollback } from '../../src/cli/commands/rollback.js'
import { currentPublication } from '../../src/core/records/postgres/snapshot-reader.js'
import type { Fact } from '../../src/core/records/record.js'
import { connect, createTestSchema, postgresAvailable, type TestSchema } from '../support/postgres.js'
import { REFUSED_RECORDS } from '../support/refused-records.js'
import { temporaryFiles } from '../support/temporary-files.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const available = await postgresAvailable()
const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const lines = fixture.map((r) => JSON.stringify(r))
const { write } = temporaryFiles('rr-publish-refusals-', 'ndjson')

function collected(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough()
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

describe.runIf(available)('reference-records publish refuses rather than alters', () => {
  let schema: TestSchema
  const publish = (...args: string[]) => run(runPublish, args)
  const rollback = (...args: string[]) => run(runRollback, args)
  const current = async () => {
    const client = await connect(schema.url)
    try {
      return await currentPublication(client)
    } finally {
      await client.end()
    }
  }
  const run = async (command: typeof runPublish, args: string[]) => {
    const stdout = collected()
    const stderr = collected()
    const code = await command(args, {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stderrIsTTY: false,
      stdoutSharesTerminal: false,
      env: { DATABASE_URL: schema.url },
    })
    return { code, stdout: stdout.text(), stderr: stderr.text() }
  }
  beforeAll(async () => {
    schema = await createTestSchema('rr_refusals')
    expect(await publish(write(`${lines.join('\n')}\n`))).toMatchObject({ code: 0 })
  })
  afterAll(() => schema?.drop())

  it.each(REFUSED_RECORDS)('$name, naming the line and the reason', async ({ line, reason }) => {
    const file = write([lines[0], line(lines[1]!), ...lines.slice(2)].join('\n'))
    const result = await publish(file)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(new RegExp(`line 2 \\(id "${fixture[1]!.id}"\\): ${reason.source}`))
    expect(result.stderr).toMatch(/Nothing was published\.\n$/)
  })

  it('a Latin-1 file, naming the line', async () => {
    const file = write(
      Buffer.concat([
        Buffer.from(`${lines[0]}\n`),
        Buffer.from(lines[1]!.replace('"title":"', '"title":"Sécurité '), 'latin1'),
      ]),
    )
    const result = await publish(file)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/line 2: not valid UTF-8/)
  })

  it('a file cut short, saying how many records it would remove, unless --allow-removals', async () => {
    const cut = write(`${lines.slice(0, 7).join('\n')}\n`)
    const removed = fixture.length - 7
    for (const args of [[cut], [cut, '--dry-run']]) {
      const result = await publish(...args)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(
        `publishing would remove ${removed} of the ${fixture.length} current records`,
      )
      expect(result.stderr).toMatch(/--allow-removals.*Nothing was published\.\n$/s)
    }
    const allowed = await publish(cut, '--allow-removals')
    expect(allowed).toMatchObject({ code: 0, stderr: '' })
    expect(allowed.stdout).toMatch(/Published snapshot/)
  })

  it('a removal within the share publishes without being asked', async () => {
    const grown = write(`${lines.join('\n')}\n`)
    expect(await publish(grown)).toMatchObject({ code: 0 })
    const oneLess = write(`${lines.slice(0, -1).join('\n')}\n`)
    // One record of the 13 is 8 %: within the tenth allowed.
    expect(fixture).toHaveLength(13)
    const result = await publish(oneLess)
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/Published snapshot/)
  })

  it('a rollback that removes as much, with the same guard (issue 43)', async () => {
    expect(await publish(write(`${lines.slice(0, 2).join('\n')}\n`), '--allow-removals')).toMatchObject({
      code: 0,
    })
    const small = (await current())!.snapshotId
    expect(await publish(write(`${lines.join('\n')}\n`))).toMatchObject({ code: 0 })
    const whole = await current()
    for (const args of [[String(small)], [String(small), '--dry-run']]) {
      const refused = await rollback(...args)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(
        `rolling back to snapshot ${small} would remove ${fixture.length - 2} of the ${fixture.length} current records`,
      )
      expect(refused.stderr).toMatch(/--allow-removals.*Nothing was published\.\n$/s)
    }
    expect((await current())!.publicationId).toBe(whole!.publicationId)
    const allowed = await rollback(String(small), '--allow-removals')
    expect(allowed).toMatchObject({ code: 0, stderr: '' })
    expect(allowed.stdout).toMatch(new RegExp(`Snapshot ${small} is current again`))
    expect((await current())!.snapshotId).toBe(small)
  })
})
