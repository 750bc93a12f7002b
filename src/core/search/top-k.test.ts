import { describe, expect, it } from 'vitest'
import { topK } from './top-k.js'

describe('topK', () => {
  const numbers = Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 5_003)
  const ascending = (a: number, b: number) => a - b
  it.each([0, 1, 10, 50, 1_249, 1_251, 5_000, 6_000])(
    'returns the first %i in order, as a full sort would',
    (k) => {
      expect(topK(numbers, k, ascending)).toEqual(numbers.slice().sort(ascending).slice(0, k))
    },
  )
  it('keeps ties in comparator order', () => {
    const items = Array.from({ length: 1_000 }, (_, i) => ({ tier: i % 3, id: i }))
    const order = (a: (typeof items)[number], b: (typeof items)[number]) => b.tier - a.tier || a.id - b.id
    expect(topK(items, 20, order)).toEqual(items.slice().sort(order).slice(0, 20))
  })
})
