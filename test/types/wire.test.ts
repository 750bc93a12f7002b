/**
 * The client's own wire types (src/client/wire.ts) equal the types the server infers from its one
 * schema: the client ships without zod, and this test (checked by `tsc` in `npm test`, and run by
 * vitest) makes sure the two can never drift. `Equal` is exact: an extra, missing or differently
 * optional field on either side fails to compile.
 */
import { expect, expectTypeOf, it } from 'vitest'
import type * as wire from '../../src/client/wire.js'
import type { ChangeFeedAnswer, ChangesParams } from '../../src/core/api/changes.js'
import type { Catalogue, SearchEnvelope, SearchParams } from '../../src/core/api/schemas.js'
import type { ErrorBody } from '../../src/core/errors.js'
import type { Fact, Kind } from '../../src/core/records/record.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const exactly = <T extends true>(): T => true as T

it('the client wire types are the schema types, exactly', () => {
  expect(exactly<Equal<wire.Fact, Fact>>()).toBe(true)
  expect(exactly<Equal<wire.Kind, Kind>>()).toBe(true)
  expect(exactly<Equal<wire.SearchEnvelope, SearchEnvelope>>()).toBe(true)
  expect(exactly<Equal<wire.Catalogue, Catalogue>>()).toBe(true)
  expect(exactly<Equal<wire.ErrorBody, ErrorBody>>()).toBe(true)
  expect(exactly<Equal<wire.ChangeFeed, ChangeFeedAnswer>>()).toBe(true)
  expect(exactly<Equal<wire.ChangesQuery, Partial<Omit<ChangesParams, 'po_live'>>>>()).toBe(true)
  expect(exactly<Equal<wire.SearchParameters, Partial<Omit<SearchParams, 'po_live'>>>>()).toBe(true)
  expectTypeOf<wire.Fact['sources'][number]['type']>().toEqualTypeOf<
    'official' | 'operator' | 'brand' | 'source'
  >()
})
