/** Runs the built `reference-records` binary as a child process, as a user would, and reads its JSON logs. */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

export type Spawned = {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exited: Promise<number | null>
}

export function spawnCli(args: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (c: Buffer) => (out += c))
  child.stderr!.on('data', (c: Buffer) => (err += c))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, stdout: () => out, stderr: () => err, exited }
}

/**
 * Waits for Fastify's "Server listening at" log line and returns the address. The deadline guards
 * against a start that hangs, not a slow one: it sits just under the tiers' 30 s test timeout, so
 * that a hang reports the child's output. A start takes about a second on a quiet machine, and took
 * more than 15 s (the deadline before) while other work kept both cores busy (load average 15).
 */
export async function listeningUrl(spawned: Spawned, timeoutMs = 25_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(spawned.stdout())
    if (match) return match[1]!
    if (spawned.child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`service did not start:\n${spawned.stdout()}\n${spawned.stderr()}`)
}
