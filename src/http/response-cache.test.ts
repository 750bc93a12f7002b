import { describe, expect, it } from 'vitest'
import type { RecordIndex } from '../core/search/record-index.js'
import { PreparedBody } from './prepared-body.js'
import { ResponseCache } from './response-cache.js'

const snapshot = {} as RecordIndex

describe('ResponseCache', () => {
  it('returns what was stored for the same snapshot only', () => {
    const cache = new ResponseCache()
    const other = {} as RecordIndex
    cache.set(snapshot, '/a', new PreparedBody(Buffer.from('{"a":1}'), 'application/json', 'fast', '"a"'))
    expect(cache.get(snapshot, '/a')?.body.toString()).toBe('{"a":1}')
    expect(cache.get(other, '/a')).toBeUndefined()
  })
  // Its memory bounds, measured after full collections, are checked in the scale tier
  // (response-cache.scale.test.ts).
})
