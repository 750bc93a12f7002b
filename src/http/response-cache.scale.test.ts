/**
 * The response cache's memory bounds, measured as the process holds it after full collections: 100 000
 * tiny answers, and 2 000 large ones compressed both ways. Memory checks, with counts large enough to
 * show what a cache really holds, so they run in the scale tier rather than the unit tier.
 */
import { describe, expect, it } from 'vitest'
import { processHeldBytes } from '../../test/support/garbage.js'
import type { RecordIndex } from '../core/search/record-index.js'
import { PreparedBody } from './prepared-body.js'
import { ResponseCache } from './response-cache.js'

const snapshot = {} as RecordIndex

describe('ResponseCache memory', () => {
  it('keeps the memory it really holds within its bound, even for tiny answers', () => {
    const bound = 8 * 1024 * 1024
    const cache = new ResponseCache(bound)
    const before = processHeldBytes()
    for (let i = 0; i < 100_000; i++) {
      const body = Buffer.from(`{"results":[],"total":0,"limit":10,"offset":${i % 10_000}}`) // from the shared pool
      cache.set(
        snapshot,
        `/api/v1/facts?q=nothing${i}&po_live=1`,
        new PreparedBody(body, 'application/json', 'fast', `"${'e'.repeat(27)}"`),
      )
    }
    const grown = processHeldBytes() - before
    expect(cache.heldBytes(snapshot)).toBeLessThanOrEqual(bound)
    expect(grown).toBeLessThan(bound * 1.25)
  })

  it('counts room for the compressed variants: large answers compressed both ways stay within the bound', () => {
    const bound = 4 * 1024 * 1024
    const cache = new ResponseCache(bound)
    const text = JSON.stringify({
      results: Array.from({ length: 40 }, (_, i) => ({
        id: i,
        title: `Règle ${i}`,
        text: 'La vitesse est limitée en agglomération. '.repeat(8),
      })),
    })
    const before = processHeldBytes()
    for (let i = 0; i < 2_000; i++) {
      const stored = cache.set(
        snapshot,
        `/api/v1/facts?q=x${i}&po_live=1`,
        new PreparedBody(`${text}${i}`, 'application/json', 'fast'),
      )
      stored.encodedSync('br')
      stored.encodedSync('gzip')
    }
    expect(processHeldBytes() - before).toBeLessThan(bound * 1.25)
  })
})
