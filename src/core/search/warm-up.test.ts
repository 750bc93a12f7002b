import { expect, it } from 'vitest'
import { warmSearch } from './warm-up.js'

it('finds records with every query of the warm-up: a query finding none would leave its evaluator cold', () => {
  const totals = warmSearch()
  expect(totals.length).toBeGreaterThanOrEqual(8)
  expect(totals.filter((total) => total === 0)).toEqual([])
})
