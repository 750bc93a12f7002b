import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.js'
import { startServer, type RunningServer } from '../../server.js'
import type { CliIo } from './common.js'
import { runDump } from './dump.js'

let server: RunningServer
beforeAll(async () => {
  server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      RECORDS_FILE: 'test/fixtures/records.small.json',
      LOG_LEVEL: 'silent',
    }),
  )
})
afterAll(() => server?.close())

/** Streams that remember what was written; stderr may pretend to be a terminal. */
function memoryIo(stderrIsTTY: boolean) {
  const collect = (stream: PassThrough) => {
    let text = ''
    stream.on('data', (chunk: Buffer) => (text += chunk))
    return () => text
  }
  const stdout = new PassThrough()
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY, columns: 100 })
  const io: CliIo = { stdout, stderr, stderrIsTTY, env: { REFERENCE_RECORDS_URL: `${server.url}/api/v1` } }
  return { io, stdout: collect(stdout), stderr: collect(stderr) }
}

describe('runDump', () => {
  it('draws a progress bar on stderr when it is a terminal', async () => {
    const { io, stdout, stderr } = memoryIo(true)
    expect(await runDump(['--kind', 'lesson'], io)).toBe(0)
    expect(stdout().trim().split('\n')).toHaveLength(3)
    expect(stderr()).toContain('dump [')
    expect(stderr()).toContain('3/3 records')
  })

  it('stays quiet on stderr otherwise', async () => {
    const { io, stdout, stderr } = memoryIo(false)
    expect(await runDump([], io)).toBe(0)
    expect(stdout().trim().split('\n')).toHaveLength(13)
    expect(stderr()).toBe('')
  })

  it('refuses an unknown kind and stray arguments with exit 2', async () => {
    const { io, stderr } = memoryIo(false)
    expect(await runDump(['--kind', 'facts'], io)).toBe(2)
    expect(await runDump(['everything'], io)).toBe(2)
    expect(stderr()).toContain(
      'reference-records dump: --kind must be one of fact, expertise, organization, offer, person, article, lesson, page, tool, got "facts"',
    )
    expect(stderr()).toContain('reference-records dump: unexpected argument "everything"')
  })
})
