import { describe, expect, it } from 'vitest'
import { limitRepeats } from './log.js'

describe('limitRepeats', () => {
  it('writes at most perWindow lines of a kind per window, then says how many it suppressed', () => {
    const clock = { now: 0 }
    const lines: [object, string][] = []
    const log = limitRepeats((fields, message) => lines.push([fields, message]), {
      perWindow: 2,
      windowMs: 1_000,
      now: () => clock.now,
    })
    for (let i = 0; i < 5; i++) log({ i }, 'client fault')
    log({}, 'another fault')
    expect(lines).toEqual([
      [{ i: 0 }, 'client fault'],
      [{ i: 1 }, 'client fault'],
      [{}, 'another fault'],
    ])
    clock.now = 1_000
    log({ i: 5 }, 'client fault')
    expect(lines.at(-1)).toEqual([{ i: 5, suppressedBefore: 3 }, 'client fault'])
  })
})
