/** The served OpenAPI document passes Redocly's linter (the engine of `redocly lint`) with its recommended rules. */
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

it('has no lint errors or warnings under the recommended ruleset', async () => {
  const res = await server.get('/api/v1/openapi.json?po_live=1')
  const config = await createConfig({ extends: ['recommended-strict'] })
  const problems = await lintFromString({ source: res.text, absoluteRef: 'openapi.json', config })
  const summary = problems.map(
    (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`,
  )
  expect(summary).toEqual([])
})
