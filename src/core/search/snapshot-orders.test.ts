import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { OrderKeys, type Compare } from './snapshot-orders.js'

/** Keys of `count` documents drawn so that ids and urls often share their first 32 bits, or all of them. */
function keys(count: number, seed: string): OrderKeys {
  const rng = createRng(sfc32(hashSeed(seed)))
  const few = (n: number) => () => rng.int(n)
  const word = () => (rng.chance(0.5) ? rng.int(4) : rng.int(2 ** 32)) // small values collide, large ones spread
  const u32 = (draw: () => number) => Uint32Array.from({ length: count }, draw)
  return new OrderKeys(
    Uint8Array.from({ length: count }, few(9)),
    Array.from({ length: count }, () => rng.pick(['Vitesse', 'vitesse', 'Priorité', 'Alcool', 'Zone 30'])),
    Uint8Array.from({ length: count }, few(6)),
    u32(word),
    u32(word),
    u32(word),
    u32(word),
  )
}

/** Documents [from, to) sorted by comparisons alone. */
const compared = (from: number, to: number, compare: Compare) =>
  Array.from({ length: to - from }, (_, i) => from + i).sort(compare)

describe('OrderKeys.sorted', () => {
  it.each([
    [1, 0, 1],
    [500, 0, 500],
    [3_000, 1_000, 3_000],
    [20_000, 7, 19_000],
  ])(
    'gives the comparisons’ orders, ties in the first 32 bits included (%i documents, [%i, %i))',
    (count, from, to) => {
      const orderKeys = keys(count, `orders ${count}`)
      const { byId, byUrl, order } = orderKeys.sorted(from, to)
      expect([...byId]).toEqual(compared(from, to, orderKeys.byId))
      expect([...byUrl]).toEqual(compared(from, to, orderKeys.byUrl))
      expect([...order]).toEqual(compared(from, to, orderKeys.listing))
    },
  )

  it('orders an empty range', () => {
    const { byId, byUrl, order } = keys(10, 'empty').sorted(4, 4)
    expect([byId.length, byUrl.length, order.length]).toEqual([0, 0, 0])
  })
})
