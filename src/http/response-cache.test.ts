import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { RecordIndex } from '../core/search/record-index.js'
import { ResponseCache } from './response-cache.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const held = () => {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.external
}
const snapshot = {} as RecordIndex

describe('ResponseCache', () => {
  it('returns what was stored for the same snapshot only', () => {
    const cache = new ResponseCache()
    const other = {} as RecordIndex
    cache.set(snapshot, '/a', { body: Buffer.from('{"a":1}'), etag: '"a"' })
    expect(cache.get(snapshot, '/a')?.body.toString()).toBe('{"a":1}')
    expect(cache.get(other, '/a')).toBeUndefined()
  })

  it('keeps the memory it really holds within its bound, even for tiny answers', () => {
    const bound = 8 * 1024 * 1024
    const cache = new ResponseCache(bound)
    const before = held()
    for (let i = 0; i < 100_000; i++) {
      const body = Buffer.from(`{"results":[],"total":0,"limit":10,"offset":${i % 10_000}}`) // from the shared pool
      cache.set(snapshot, `/api/v1/facts?q=nothing${i}&po_live=1`, { body, etag: `"${'e'.repeat(27)}"` })
    }
    const grown = held() - before
    expect(cache.heldBytes(snapshot)).toBeLessThanOrEqual(bound)
    expect(grown).toBeLessThan(bound * 1.25)
  })
})
