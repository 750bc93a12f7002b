/** The property of target-reading.test.ts on many more generated targets. */
import { afterAll, beforeAll, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { loadInProcess } from '../../src/core/snapshots/load-snapshot.js'
import { createService, type Service } from '../../src/service/service.js'
import {
  expectOneReading,
  routesSeen,
  TARGET_READING_LIMIT,
  type RoutesSeen,
} from '../support/properties/target-reading.js'

const FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname

let service: Service
let seen: RoutesSeen
beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RECORDS_FILE: FIXTURE,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: TARGET_READING_LIMIT,
  })
  service = await createService(config, { fastPath: false, load: loadInProcess })
  seen = routesSeen(service)
  await service.app.ready()
})
afterAll(() => service?.close())

it('routes and counts every generated target by the same normalised reading, on 8 000 targets', async () => {
  await expectOneReading(service, seen, 8_000, 'target-reading-scale')
}, 120_000)
