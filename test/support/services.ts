/**
 * Real backing services for integration tests. On a developer's machine without them, the tests
 * that need them are skipped with a clear line; under CI (CI set) a missing service is a failure.
 */
import { Socket } from 'node:net'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

function reachable(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = new Socket()
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('error', () => done(false))
    socket.connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => done(true))
  })
}

/** True when the service answers; false (with a printed reason) when it does not and CI is not set. */
export async function serviceAvailable(name: string, url: string): Promise<boolean> {
  if (await reachable(url)) return true
  const reason = `${name} is not reachable at ${url}`
  if (process.env.CI) throw new Error(`${reason}: CI requires it`)
  console.warn(`SKIPPED: tests needing ${name} (${reason}; start it, or set CI=1 to make this a failure)`)
  return false
}

export const redisAvailable = () => serviceAvailable('Redis', REDIS_URL)
