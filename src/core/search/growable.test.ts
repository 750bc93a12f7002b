import { describe, expect, it } from 'vitest'
import { GROWTH_STEP_BYTES, Growable } from './growable.js'

const reserved = (array: Growable<'u8' | 'u32'>) => array.values.buffer.byteLength

describe('Growable', () => {
  it('doubles while small, then grows by one step at a time, so its slack stays under a step', () => {
    const bytes = new Growable('u8')
    bytes.reserve(1000)
    expect(reserved(bytes)).toBe(4096)
    bytes.length = 4096
    bytes.reserve(1)
    expect(reserved(bytes)).toBe(8192)
    for (let filled = 8192; filled < 8 * GROWTH_STEP_BYTES; filled += 4096) {
      bytes.length = filled
      bytes.reserve(4096)
      expect(reserved(bytes)).toBeGreaterThanOrEqual(filled + 4096)
      expect(reserved(bytes) - (filled + 4096)).toBeLessThanOrEqual(GROWTH_STEP_BYTES)
    }
  })

  it('takes a reservation larger than a step at once', () => {
    const words = new Growable('u32')
    words.reserve(GROWTH_STEP_BYTES) // four steps of bytes
    expect(reserved(words)).toBe(4 * GROWTH_STEP_BYTES)
  })

  it('refills the same memory after clear(), and filled() shows only the values pushed since', () => {
    const log = new Growable('u32')
    for (let i = 0; i < 100_000; i++) log.push(i)
    const before = reserved(log)
    log.clear()
    expect(log.length).toBe(0)
    expect(reserved(log)).toBe(before)
    for (let i = 0; i < 3; i++) log.push(7 - i)
    expect(Array.from(log.filled())).toEqual([7, 6, 5])
    expect(reserved(log)).toBe(before)
  })

  it('trims to its length when done, keeping the values', () => {
    const values = new Growable('u32')
    for (let i = 0; i < 5000; i++) values.push(i * 3)
    const done = values.done()
    expect(done.length).toBe(5000)
    expect(done.buffer.byteLength).toBe(5000 * 4)
    expect(done[4999]).toBe(4999 * 3)
  })
})
