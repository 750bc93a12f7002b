/**
 * One reading of the request target decides the route and the count (test/support/properties/target-reading.ts),
 * on a few hundred generated targets through the real front door, in memory. The scale tier runs
 * the same property on thousands (target-reading.scale.test.ts).
 */
import { afterAll, beforeAll, it } from 'vitest'
import type { Service } from '../../src/service/service.js'
import {
  expectOneReading,
  startReadingService,
  type RoutesSeen,
} from '../support/properties/target-reading.js'

let service: Service
let seen: RoutesSeen
beforeAll(async () => {
  ;({ service, seen } = await startReadingService())
})
afterAll(() => service?.close())

it('routes and counts every generated target by the same normalised reading', async () => {
  await expectOneReading(service, seen, 300, 'target-reading')
})
