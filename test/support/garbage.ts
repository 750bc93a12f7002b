/**
 * V8's full garbage collection, for tests that measure memory or time without the garbage of what ran
 * before. The test process is not started with --expose-gc: setting the flag makes `gc` available in
 * contexts created after it, and one such context hands it over.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
export const collectGarbage = runInNewContext('gc') as () => void

/** Bytes the process holds in the JS heap and in external memory (buffers), after full collections. */
export function processHeldBytes(): number {
  collectGarbage()
  collectGarbage()
  const { heapUsed, external } = process.memoryUsage()
  return heapUsed + external
}
