/** Graceful close in process: a request being handled when close() starts still gets its full answer. */
import { expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createService } from '../../src/service/service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

it('lets in-flight requests finish, then stops accepting', async () => {
  const service = await createService(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RECORDS_FILE: SMALL_FIXTURE, LOG_LEVEL: 'silent' }),
  )
  let entered!: () => void
  const handling = new Promise<void>((resolve) => (entered = resolve))
  // A deliberately slow route, added by the test only, stands for any request still being handled.
  service.app.get('/test/slow', async () => {
    entered()
    await new Promise((r) => setTimeout(r, 300))
    return { done: true }
  })
  const url = await service.listen()
  const inFlight = fetch(`${url}/test/slow`).then(async (res) => ({
    status: res.status,
    body: await res.json(),
  }))
  await handling
  const closed = service.close()
  expect(await inFlight).toEqual({ status: 200, body: { done: true } })
  await closed
  await expect(fetch(`${url}/healthz`)).rejects.toThrow()
})
