/** The property of target-reading.test.ts on many more generated targets. */
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

it('routes and counts every generated target by the same normalised reading, on 8 000 targets', async () => {
  await expectOneReading(service, seen, 8_000, 'target-reading-scale')
}, 120_000)
