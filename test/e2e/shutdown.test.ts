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
  // A real address made deliberately slow by the test (every address is in the route table, which
  // refuses a handler of its own): it stands for any request still being handled.
  service.app.addHook('onRequest', async (req) => {
    if (req.url !== '/docs') return
    entered()
    await new Promise((r) => setTimeout(r, 300))
  })
  const url = await service.listen()
  const inFlight = fetch(`${url}/docs`).then(async (res) => ({
    status: res.status,
    complete: (await res.text()).includes('</html>'),
  }))
  await handling
  const closed = service.close()
  expect(await inFlight).toEqual({ status: 200, complete: true })
  await closed
  await expect(fetch(`${url}/healthz`)).rejects.toThrow()
})
