/** The record URL rule over 100 000 random URL-like strings; http-url.test.ts runs 1 000. */
import { describe, it } from 'vitest'
import { expectRandomUrlsRuled } from '../../../test/support/properties/http-url.js'

describe('a record URL, at scale', () => {
  it('holds its promises over random URL-like strings', () => {
    expectRandomUrlsRuled(100_000)
  })
})
