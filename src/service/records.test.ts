import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { expect, it } from 'vitest'
import { silentLog } from '../core/log.js'
import { createMetrics } from './metrics.js'
import { openRecords } from './records.js'

const SMALL = fileURLToPath(new URL('../../test/fixtures/records.small.json', import.meta.url))

/**
 * The id of a thread started now. Ids are given in order, one per thread the process starts, so two
 * probes tell how many threads started between them, without mocking the module that starts them.
 */
async function nextThreadId(): Promise<number> {
  const probe = new Worker('', { eval: true })
  const id = probe.threadId
  await probe.terminate()
  return id
}

it('builds a small source on the serving thread by default: no build thread starts (issue 43)', async () => {
  const metrics = createMetrics()
  const before = await nextThreadId()
  const followed = await openRecords({ file: SMALL, databaseUrl: undefined }, { log: silentLog, metrics })
  try {
    await followed.loaded
    expect(followed.records.current?.size).toBeGreaterThan(0)
    expect(await nextThreadId()).toBe(before + 1)
  } finally {
    await followed.close()
    metrics.close()
  }
})
