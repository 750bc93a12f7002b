/** ReplyWatch on a clock driven by hand: what counts as "no answer", and what a busy loop cannot make one. */
import { describe, expect, it } from 'vitest'
import { ManualClock } from './manual-clock.js'
import { MIN_TICKS, ReplyWatch } from './reply-watch.js'

function setup(timeoutMs = 250) {
  const clock = new ManualClock()
  const watch = new ReplyWatch(timeoutMs, clock)
  const overdue: string[] = []
  const call = (name: string) => watch.watch(() => overdue.push(name))
  return { clock, watch, overdue, call }
}

describe('ReplyWatch', () => {
  it('reports a call unanswered for the timeout on a free loop, at the next tick, once', async () => {
    const { clock, overdue, call } = setup(250)
    call('a')
    await clock.run(299)
    expect(overdue).toEqual([]) // credited 250 ms at 250: judged at the next tick, after another read
    await clock.run(1)
    expect(overdue).toEqual(['a'])
    await clock.run(5_000)
    expect(overdue).toEqual(['a'])
  })

  it('does not blame the store for a loop blocked far past the timeout: the late tick credits one step', async () => {
    const { clock, watch, overdue, call } = setup(250)
    const answered = call('a')
    await clock.block(10_000) // the answer sits in the socket all this time
    answered() // read in the same turn, once the loop is free
    expect(overdue).toEqual([])
    expect(watch.size).toBe(0)
  })

  it('counts only what the loop let pass, however often it is late', async () => {
    const { clock, watch, overdue, call } = setup(250)
    call('a')
    // Every turn of the loop takes 400 ms (saturated): each tick is late and credits one 50 ms step.
    for (let turn = 1; turn <= 250 / watch.stepMs; turn++) {
      await clock.block(400)
      expect(overdue, `turn ${turn}`).toEqual([])
    }
    await clock.block(400)
    expect(overdue).toEqual(['a']) // no answer through six turns of the loop, each reading the socket
  })

  it(`waits through ${MIN_TICKS} ticks even for the shortest timeout, so late timers are never enough`, async () => {
    const { clock, overdue, call } = setup(1)
    call('a')
    for (let tick = 0; tick < MIN_TICKS; tick++) await clock.block(1_000)
    expect(overdue).toEqual([])
    await clock.block(1_000)
    expect(overdue).toEqual(['a'])
  })

  it('credits a call only from when it was sent', async () => {
    const { clock, watch, overdue, call } = setup(250)
    call('early')
    await clock.run(200)
    call('late')
    await clock.run(100)
    expect(overdue).toEqual(['early']) // at 300
    await clock.run(199)
    expect(overdue).toEqual(['early'])
    await clock.run(watch.stepMs)
    expect(overdue).toEqual(['early', 'late']) // at 500, 300 ms after it was sent
  })

  it('forgets answered calls and keeps no timer while nothing is in flight', async () => {
    const { clock, watch, overdue, call } = setup(250)
    const answers = [call('a'), call('b')]
    expect(clock.timers).toBe(1)
    answers[0]!()
    answers[0]!() // settling twice is harmless
    expect(clock.timers).toBe(1)
    answers[1]!()
    expect({ timers: clock.timers, size: watch.size }).toEqual({ timers: 0, size: 0 })
    await clock.run(1_000)
    expect(overdue).toEqual([])
  })
})
