import { describe, expect, it } from 'vitest'
import { diffSnapshots, isEmptyDiff } from './diff.js'

describe('diffSnapshots', () => {
  it('sorts ids into added, changed and removed, and counts the rest', () => {
    const before = new Map([
      ['b', '1'],
      ['a', '1'],
      ['c', '1'],
      ['d', '1'],
    ])
    const after = new Map([
      ['e', '1'],
      ['a', '2'],
      ['c', '1'],
      ['0', '1'],
      ['d', '1'],
    ])
    expect(diffSnapshots(before, after)).toEqual({
      added: ['0', 'e'],
      changed: ['a'],
      removed: ['b'],
      unchanged: 2,
    })
  })
  it('is empty for equal snapshots, and all added against nothing', () => {
    const same = new Map([['a', '1']])
    expect(isEmptyDiff(diffSnapshots(same, new Map(same)))).toBe(true)
    expect(diffSnapshots(new Map(), same)).toEqual({ added: ['a'], changed: [], removed: [], unchanged: 0 })
  })
})
