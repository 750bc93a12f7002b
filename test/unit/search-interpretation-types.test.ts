/** The search interpretation is defined three times — core, API schema, client wire type — and must be one shape (checked by `npm run typecheck`). */
import { describe, expectTypeOf, it } from 'vitest'
import type {
  SearchInterpretation as WireInterpretation,
  SearchEnvelope as WireEnvelope,
} from '../../src/client/wire.js'
import type { SearchEnvelope, SearchInterpretation } from '../../src/core/api/schemas.js'
import type { Interpretation } from '../../src/core/search/interpret.js'

describe('the search interpretation type', () => {
  it('is the same in the core, the API schema and the client', () => {
    expectTypeOf<Interpretation>().toEqualTypeOf<SearchInterpretation>()
    expectTypeOf<WireInterpretation>().toEqualTypeOf<SearchInterpretation>()
    expectTypeOf<WireEnvelope['interpretation']>().toEqualTypeOf<SearchEnvelope['interpretation']>()
  })
})
