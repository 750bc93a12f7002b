/**
 * The two request paths answer alike over every generated request, in every method and encoding,
 * twice: test/unit/request-paths.test.ts compares an eighth of them, each target once.
 */
import { afterAll, beforeAll, it } from 'vitest'
import type { Service } from '../../src/service/service.js'
import {
  expectPathsAgree,
  generatedRequests,
  startBothPaths,
  type Document,
} from '../support/properties/request-paths.js'

let on: Service
let off: Service
let doc: Document
beforeAll(async () => {
  ;({ on, off, doc } = await startBothPaths())
})
afterAll(() => Promise.all([on?.close(), off?.close()]))

it('answers every generated request with the same bytes, twice (the second time from prepared answers)', async () => {
  await expectPathsAgree(on, off, generatedRequests(doc, { quick: false }))
}, 120_000)
