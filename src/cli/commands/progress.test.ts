import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliIo } from './command-io.js'
import { clearProgress, commandProgress } from './progress.js'

/** stderr as a fake terminal (or not), remembering what was written. */
function ioWith(isTTY: boolean) {
  const stderr = Object.assign(new PassThrough(), { isTTY, columns: 120 })
  let text = ''
  stderr.on('data', (chunk: Buffer) => (text += chunk))
  const io: CliIo = {
    stdout: new PassThrough(),
    stderr,
    stderrIsTTY: isTTY,
    stdoutSharesTerminal: false,
    env: {},
  }
  return { io, stderr: () => text }
}
const retry = { attempt: 1, status: 429, waitMs: 2000, url: 'http://x/', error: new Error('Too many') }

afterEach(() => clearProgress())

describe('commandProgress', () => {
  it('draws each step on a terminal: a count while the size is unknown, a bar once known', async () => {
    const { io, stderr } = ioWith(true)
    const progress = commandProgress(io, 'publish')
    expect(progress.drawn).toBe(true)
    progress.step('reading records.ndjson')
    expect(stderr()).toContain('publish: reading records.ndjson…')
    progress.step('storing', { total: 4000, unit: 'records' })
    progress.update(2000)
    // Drawn at the bar's next frame (at most 10 a second).
    await expect.poll(stderr).toMatch(/publish: storing \[█{15}░{15}\] 2000\/4000 records/)
    progress.onRetry(retry)
    await expect.poll(stderr).toContain('2000/4000 records · rate limited (429); retry 1 of 3 in 2 s')
    progress.clear()
  })

  it('draws nothing when stderr is not a terminal, or when not allowed; retries are lines', () => {
    for (const [isTTY, allowed] of [
      [false, true],
      [true, false],
    ] as const) {
      const { io, stderr } = ioWith(isTTY)
      const progress = commandProgress(io, 'sync', allowed)
      expect(progress.drawn).toBe(false)
      progress.step('downloading', { total: 10, unit: 'records' })
      progress.update(5)
      expect(stderr()).toBe('')
      progress.onRetry(retry)
      expect(stderr()).toBe('reference-records sync: rate limited (429); retry 1 of 3 in 2 s\n')
    }
  })

  it('clears every bar still drawn when a command fails', () => {
    const { io } = ioWith(true)
    const progress = commandProgress(io, 'rollback')
    progress.step('comparing')
    clearProgress()
    // Cleared: an update draws nothing more, and no render timer keeps the process alive.
    const { stderr } = ioWith(true)
    progress.update(1)
    expect(stderr()).toBe('')
  })
})
