/** Starts the built service as a child process for fuzzing and soaking, and gives its port, pid and record ids. */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { spawnCli, type Spawned } from '../support/spawn-service.js'

export const SAMPLE_IDS: readonly string[] = (
  JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
    records: { id: string }[]
  }
).records.map((r) => r.id)

export type FuzzTarget = { spawned: Spawned; port: number; pid: number; stop(): Promise<number | null> }

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/** The service on 127.0.0.1, logging warnings and errors only (a long run would log gigabytes otherwise). */
export async function startFuzzTarget(env: Record<string, string> = {}): Promise<FuzzTarget> {
  const port = await freePort()
  const spawned = spawnCli(['serve', '--port', String(port), '--host', '127.0.0.1'], {
    LOG_LEVEL: 'warn',
    ...env,
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    if (spawned.child.exitCode !== null)
      throw new Error(`service did not start:\n${spawned.stdout()}\n${spawned.stderr()}`)
    const up = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error('service not ready after 30 s')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    spawned,
    port,
    pid: spawned.child.pid!,
    stop: async () => {
      spawned.child.kill('SIGTERM')
      return spawned.exited
    },
  }
}
