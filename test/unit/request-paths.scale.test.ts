/**
 * The two request paths answer alike over every generated request, in every method and encoding,
 * twice: test/unit/request-paths.test.ts compares an eighth of them, each target once.
 */
import { it } from 'vitest'
import { expectPathsAgree, generatedRequests, useBothPaths } from '../support/properties/request-paths.js'

const both = useBothPaths()

it('answers every generated request with the same bytes, twice (the second time from prepared answers)', async () => {
  await expectPathsAgree(both.on, both.off, generatedRequests(both.doc, { quick: false }))
}, 120_000)
