/**
 * The built CLI (`dist/cli/main.js`, so `npm run build` first) in a child process, in a working
 * folder of the test's choosing, with its peak resident memory sampled from /proc while it runs:
 * what a hostile server may cost the command, in time and memory, and where it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

export type CliRun = {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** The highest resident set seen, in MiB (sampled every 50 ms; 0 where /proc is missing). */
  peakRssMiB: number
  /** How long it ran, in ms. */
  ms: number
}

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? 0 : Number(kb) / 1024
  } catch {
    return 0
  }
}

/**
 * Runs `reference-records ARGS` in `cwd` with only PATH in its environment; killed (SIGKILL) after
 * `killAfterMs`, so a command that never ends fails its test instead of hanging it. `onStart` gets
 * the process (to send it a signal).
 */
export function runCli(
  args: string[],
  options: { cwd: string; killAfterMs?: number; onStart?: (child: ChildProcess) => void },
): Promise<CliRun> {
  const started = Date.now()
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid!))), 50)
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 25_000)
  options.onStart?.(child)
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearInterval(sampler)
      clearTimeout(killer)
      resolve({ code, signal, stdout, stderr, peakRssMiB: Math.round(peak), ms: Date.now() - started })
    })
  })
}
