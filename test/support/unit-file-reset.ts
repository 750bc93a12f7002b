/**
 * The unit tier's files share their worker's modules (vitest.config.ts): after each file, what it
 * faked or stubbed goes back, so that the next file finds the process as a fresh one would.
 *
 * The timer functions are put back by hand too: Vitest keeps every spy's restore function until
 * `vi.restoreAllMocks()`, so a spy set on a faked `setTimeout` (client/request.test.ts) would put
 * the fake back, for good, the next time any file restored its mocks.
 */
import { afterAll, vi } from 'vitest'

const REAL_TIMERS = {
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  setImmediate,
  clearImmediate,
  Date,
}

afterAll(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  Object.assign(globalThis, REAL_TIMERS)
})
