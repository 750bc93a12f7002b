/**
 * Real backing services for integration tests. On a developer's machine without them, the tests
 * that need them are skipped with a clear line; under CI (CI set) a missing service is a failure.
 */
import { Socket, createServer } from 'node:net'

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

/**
 * Whether this machine can listen on the IPv6 loopback (::1); containers often run without IPv6.
 * Only "no such address here" means unavailable: any other error is thrown, not taken for a skip.
 */
export function ipv6LoopbackAvailable(): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRNOTAVAIL' || err.code === 'EAFNOSUPPORT' ? resolve(false) : reject(err),
    )
    server.listen(0, '::1', () => server.close(() => resolve(true)))
  })
}

/** For a test that needs `name` where it is missing: a failure under CI, else a printed SKIPPED line (then skip the test). */
export function reportMissing(name: string, reason: string): void {
  if (process.env.CI) throw new Error(`${reason}: CI requires ${name}`)
  console.warn(`SKIPPED: tests needing ${name} (${reason}; set CI=1 to make this a failure)`)
}
