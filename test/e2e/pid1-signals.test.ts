/**
 * The image runs node as PID 1, with no init (Dockerfile). The kernel delivers no signal to PID 1
 * for which the process has not installed a handler, so a SIGTERM would otherwise be ignored and
 * the container killed after its grace period. Here the built service runs as PID 1 of a new PID
 * namespace (`unshare --pid --fork`, as a container's runtime starts it), and SIGTERM still drains
 * it as it does elsewhere (test/e2e/process.test.ts): a request completed during the drain gets 503,
 * the process exits 0. A process with no handler, in the same position, ignores the signal: the
 * check that this test would see the difference. Skipped (SKIPPED line) where PID namespaces cannot
 * be created (not root, or a sandbox without them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

const probe = spawnSync('unshare', ['--pid', '--fork', 'true'], { timeout: 10_000 })
const available = probe.status === 0
if (!available)
  console.warn(`SKIPPED: PID-1 signal test (unshare --pid failed: ${String(probe.stderr ?? probe.error)})`)

const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** Runs `args` as PID 1 of a new PID namespace; `pid` is its id outside (unshare's one child). */
async function asPid1(args: string[], env: Record<string, string> = {}) {
  const child = spawn('unshare', ['--pid', '--fork', '--kill-child', ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c))
  child.stderr!.on('data', (c: Buffer) => (out += c))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let pid: number | undefined
  for (let i = 0; i < 100 && pid === undefined; i++) {
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()
    if (children !== '') pid = Number(children.split(/\s+/)[0])
    else await new Promise((r) => setTimeout(r, 20))
  }
  if (pid === undefined) throw new Error(`unshare started nothing: ${out}`)
  // Inside the namespace the process is PID 1.
  expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(/^NSpid:\s+\d+\s+1$/m)
  return { child, pid, exited, output: () => out }
}

describe.runIf(available)('node as PID 1', () => {
  it('a process with no SIGTERM handler ignores the signal there (what the service must not do)', async () => {
    const idle = await asPid1([process.execPath, '-e', 'setInterval(() => {}, 1000)'])
    process.kill(idle.pid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 500))
    expect(idle.child.exitCode).toBeNull()
    process.kill(idle.pid, 'SIGKILL')
    await idle.exited
  })

  it('the service drains on SIGTERM and exits 0', async () => {
    const service = await asPid1([process.execPath, CLI, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      RECORDS_FILE: SMALL_FIXTURE,
      LOG_LEVEL: 'info',
    })
    let url: string | undefined
    for (let i = 0; i < 300 && url === undefined; i++) {
      url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(service.output())?.[1]
      if (url === undefined) await new Promise((r) => setTimeout(r, 50))
    }
    expect(url, service.output()).toBeDefined()
    const { port } = new URL(url!)
    const socket = connect(Number(port), '127.0.0.1')
    let response = ''
    socket.on('data', (c) => (response += c))
    await new Promise((r) => socket.once('connect', r))
    socket.write('GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: x\r\n') // head half sent when the signal arrives
    await new Promise((r) => setTimeout(r, 100))
    process.kill(service.pid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow() // no longer accepting
    socket.write('\r\n')
    expect(await service.exited, service.output()).toBe(0)
    expect(response).toMatch(/^HTTP\/1\.1 503 /)
    expect(response).toMatch(/"The server is shutting down; retry shortly"/)
  })
})
