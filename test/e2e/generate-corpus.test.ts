/**
 * The corpus generator's script (scripts/generate-corpus.ts) run as a process: it writes what the
 * library composes (test/corpus/generate.test.ts checks the library), and refuses a bad count.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { CorpusGenerator } from '../../scripts/corpus/generate.js'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'

const { records: sample } = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
const text = (seed: string, count: number) => [...new CorpusGenerator({ sample, seed }).lines(count)].join('')

describe('generate-corpus CLI', () => {
  it('writes the same bytes as the library, and the file loads through FileRecordSource', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'))
    const out = join(dir, 'sub', 'corpus.ndjson')
    const script = new URL('../../scripts/generate-corpus.ts', import.meta.url).pathname
    await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      script,
      '--count',
      '250',
      '--seed',
      'cli',
      '--out',
      out,
    ])
    expect(readFileSync(out, 'utf8')).toBe(text('cli', 250))
    const { records } = await new FileRecordSource(out).load()
    expect(records).toHaveLength(250)
  })

  it('refuses a missing or invalid count with a usage message', async () => {
    const script = new URL('../../scripts/generate-corpus.ts', import.meta.url).pathname
    const run = promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      script,
      '--count',
      '0',
      '--out',
      '/tmp/x.ndjson',
    ])
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--count must be an integer from 1 to'),
    })
  })
})
