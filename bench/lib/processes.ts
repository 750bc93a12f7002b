/**
 * Child processes of the bench and the one place that stops them. Every server and load generator is
 * registered here, so an error, a SIGINT or a normal end all leave nothing running.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'

/** The core servers run on and the one load generators run on (2-core machine: one each). */
export const SERVER_CPU = '1'
export const LOAD_CPU = '0'

const children = new Set<ChildProcess>()
const finalizers: Array<() => Promise<void> | void> = []

/** Runs at the end (normal or not), before children are killed; e.g. Redis key cleanup. */
export function onCleanup(fn: () => Promise<void> | void): void {
  finalizers.push(fn)
}

let stopping = false
/** True once stopAll has begun: the run must not start anything more. */
export const isStopping = () => stopping

/** Stops every child still running (SIGTERM, then SIGKILL after `graceMs`), then runs the cleanup steps. */
export async function stopAll(graceMs = 3_000): Promise<void> {
  stopping = true
  // Children first: the Redis keys are deleted once the service that writes them is gone.
  await Promise.all([...children].map((child) => stop(child, graceMs)))
  for (const fn of finalizers.splice(0).reverse()) {
    try {
      await fn()
    } catch (err) {
      process.stderr.write(`bench: cleanup step failed: ${(err as Error).message}\n`)
    }
  }
}

/** Signals a child's whole process group (nginx's worker too); each child leads its own group. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig)
  } catch {
    // already gone
  }
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

function killAllSync(): void {
  // 'exit' handlers cannot await: TERM every group, give them up to 2 s, then KILL what is left.
  const left = [...children].filter(alive)
  for (const child of left) signal(child, 'SIGTERM')
  const deadline = Date.now() + 2_000
  const running = (c: ChildProcess) => {
    try {
      process.kill(c.pid!, 0)
      return true
    } catch {
      return false
    }
  }
  while (Date.now() < deadline && left.some(running))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
  for (const child of left) signal(child, 'SIGKILL')
}

let installed = false
/** Installs the exit/SIGINT/SIGTERM/uncaught handlers once. */
export function installCleanupHandlers(): void {
  if (installed) return
  installed = true
  process.on('exit', killAllSync)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping every child process\n`)
      void stopAll(1_000).finally(() => process.exit(130))
    })
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: ${err.stack ?? err.message}\n`)
    void stopAll(1_000).finally(() => process.exit(1))
  })
}

export type SpawnOptions = {
  env?: NodeJS.ProcessEnv
  /** CPU list for taskset; undefined = not pinned. */
  cpu?: string
  /** File receiving stdout+stderr (servers), or 'pipe' to collect them (load generators). */
  output: string | 'pipe'
  cwd?: string
}

/** Starts `command` (pinned with taskset when `cpu` is set) and registers it for cleanup. */
export function start(command: string, args: string[], options: SpawnOptions): ChildProcess {
  if (stopping) throw new Error('bench: stopping, not starting anything more')
  const [cmd, argv] =
    options.cpu === undefined ? [command, args] : ['taskset', ['-c', options.cpu, command, ...args]]
  const child = spawn(cmd, argv, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  if (options.output !== 'pipe') {
    const log = createWriteStream(options.output, { flags: 'a' })
    child.stdout!.pipe(log)
    child.stderr!.pipe(log)
  }
  return child
}

/** Sends SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stop(
  child: ChildProcess,
  graceMs = 3_000,
  sig: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!alive(child)) return
  const exited = once(child, 'exit')
  signal(child, sig)
  const timer = setTimeout(() => signal(child, 'SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

/**
 * Runs a load generator to completion and returns its stdout; throws with its stderr on failure.
 * `timeoutMs` is a hard bound: a tool that hangs on exit (h2load can) is killed, not waited for.
 */
export async function run(
  command: string,
  args: string[],
  cpu: string | undefined,
  timeoutMs: number,
): Promise<string> {
  const child = start(command, args, { cpu, output: 'pipe' })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d: Buffer) => (out += d))
  child.stderr!.on('data', (d: Buffer) => (err += d))
  const timer = setTimeout(() => signal(child, 'SIGKILL'), timeoutMs)
  const [code, how] = (await once(child, 'exit')) as [number | null, string | null]
  clearTimeout(timer)
  if (how === 'SIGKILL') throw new Error(`${command} killed after ${timeoutMs} ms: ${err.trim()}`)
  if (code !== 0) throw new Error(`${command} exited ${code}: ${err.trim() || out.trim()}`)
  return out
}

/** Synchronous one-shot command (tool versions, apt); returns trimmed stdout, or undefined on failure. */
export function runSync(command: string, args: string[]): string | undefined {
  const r = spawnSync(command, args, { encoding: 'utf8' })
  return r.status === 0 ? `${r.stdout}${r.stderr}`.trim() : undefined
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it; a server started next takes it). */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

/** Polls `url` until it answers (any status), or throws after `timeoutMs` or when `child` dies. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`process for ${url} exited with code ${child.exitCode} before listening`)
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) })
      return
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}
