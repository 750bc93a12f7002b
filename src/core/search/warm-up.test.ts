import { expect, it } from 'vitest'
import { WARM_UP_QUERIES, sampleIndex, warmSearch, warmSearchInTurns } from './warm-up.js'

it('finds records with every query of the warm-up: a query finding none would leave its evaluator cold', () => {
  const totals = warmSearch()
  expect(totals.length).toBeGreaterThanOrEqual(8)
  expect(totals.filter((total) => total === 0)).toEqual([])
})

it('runs its background rounds a search a turn, and stops when told', async () => {
  const index = sampleIndex()
  let turns = 0
  let counting = true
  const tick = () => {
    turns++
    if (counting) setImmediate(tick)
  }
  setImmediate(tick)
  const searches = await warmSearchInTurns(index, 2)
  counting = false
  expect(searches).toBe(2 * WARM_UP_QUERIES.length)
  expect(turns).toBeGreaterThanOrEqual(searches - 1)
  let asked = 0
  expect(await warmSearchInTurns(index, 10, () => ++asked > 3)).toBe(3)
})
