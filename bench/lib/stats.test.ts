import { describe, expect, it } from 'vitest'
import { median, medianPassRatio, percentileSorted, range, rotation } from './stats.js'

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })

  it('throws on an empty list', () => {
    expect(() => median([])).toThrow('median: empty list')
  })
})

describe('range', () => {
  it('gives min and max', () => {
    expect(range([5, 2, 9])).toEqual([2, 9])
  })
})

describe('percentileSorted', () => {
  it('uses the nearest rank', () => {
    const l = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    expect(percentileSorted(l, 50)).toBe(5)
    expect(percentileSorted(l, 99)).toBe(10)
    expect(percentileSorted(l, 0)).toBe(1)
    expect(percentileSorted([7], 99.9)).toBe(7)
  })
})

describe('medianPassRatio', () => {
  it('is the median of ratios taken within each pass, not the ratio of medians', () => {
    // The machine slows down in pass 2: both targets drop, their ratio stays near 0.8.
    const target = [80, 40, 82]
    const reference = [100, 50, 100]
    expect(medianPassRatio(target, reference)).toBeCloseTo(0.8)
    expect(median(target) / median(reference)).toBeCloseTo(0.8) // here equal; next case not
    expect(medianPassRatio([40, 80, 41], [50, 100, 100])).toBeCloseTo(0.8)
  })

  it('skips passes where either side failed', () => {
    expect(medianPassRatio([50, undefined, 60], [100, 100, undefined])).toBe(0.5)
    expect(medianPassRatio([undefined], [100])).toBeUndefined()
  })
})

describe('rotation', () => {
  it('starts each pass one target later', () => {
    expect(rotation(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c'])
    expect(rotation(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a'])
    expect(rotation(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a'])
    expect(rotation([], 2)).toEqual([])
  })
})
