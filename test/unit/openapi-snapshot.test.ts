/**
 * The served OpenAPI document, committed as docs/openapi.json: any change of the contract (a schema,
 * a parameter, a status, a description) shows as a diff of that file in review, and cannot happen
 * by accident. The file is what a service with the default settings serves (no PUBLIC_BASE_URL, the
 * default PUBLISHER_CONTACT), pretty-printed so that its diffs read line by line.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createService, type Service } from '../../src/service/service.js'
import { loadInProcess } from '../../src/core/snapshots/load-snapshot.js'
import { send } from '../support/in-process.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const SNAPSHOT = '../../docs/openapi.json'
const UPDATE_HINT =
  'The served OpenAPI document changed. If the change is intended, update docs/openapi.json with ' +
  '`npx vitest run test/unit/openapi-snapshot.test.ts -u` and commit it with the change; ' +
  'otherwise the contract changed by accident.'

let service: Service
beforeAll(async () => {
  service = await createService(loadConfig({ RECORDS_FILE: SMALL_FIXTURE, LOG_LEVEL: 'silent' }), {
    load: loadInProcess,
  })
})
afterAll(() => service.close())

it('serves the committed document, byte for byte once pretty-printed', async () => {
  const res = await send(service.app, { target: '/api/v1/openapi.json?po_live=1' })
  expect(res.status).toBe(200)
  // Parsed and printed again: the file is readable, and a byte changed in what is served still changes it.
  const document = res.json()
  expect(JSON.stringify(document)).toBe(res.text)
  await expect(`${JSON.stringify(document, null, 2)}\n`, UPDATE_HINT).toMatchFileSnapshot(SNAPSHOT)
})
