/** The OpenAPI document says who publishes and under which terms, with addresses usable anywhere. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ PUBLISHER_CONTACT: 'records@publisher.example' })
})
afterAll(() => server.close())

it('has a contact and an absolute license URL, also without a public base URL', async () => {
  const { info } = (await server.get('/api/v1/openapi.json?po_live=1')).body as {
    info: { contact: { email: string }; license: { name: string; url: string } }
  }
  expect(info.contact).toEqual({ name: 'Publisher of the records', email: 'records@publisher.example' })
  expect(new URL(info.license.url).href).toBe('https://spdx.org/licenses/MIT.html') // throws on a relative URL
  expect(info.license.name).toMatch(/^MIT /)
})
