/**
 * Installs the load tools from Debian when missing: wrk (closed loop; autocannon tops out near 25k
 * req/s here), h2load (fixed-rate latency; Debian has no wrk2) and nginx-light (the ceiling).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { runSync } from './processes.js'

/** Binary → Debian package providing it. */
const TOOLS: Record<string, string> = { wrk: 'wrk', h2load: 'nghttp2-client', nginx: 'nginx-light' }

const has = (binary: string) => runSync('sh', ['-c', `command -v ${binary}`]) !== undefined

/** Makes sure wrk, h2load and nginx exist; runs `apt-get update` then `apt-get install` for missing ones. */
export function ensureTools(log: (line: string) => void): void {
  const missing = Object.keys(TOOLS).filter((b) => !has(b))
  if (missing.length === 0) return
  const packages = missing.map((b) => TOOLS[b]!)
  log(`installing ${packages.join(', ')} with apt-get`)
  // Debian's nginx postinst would start a system nginx on 0.0.0.0:80; a policy-rc.d answering 101 stops
  // that (Docker images already ship one). Ours is removed afterwards.
  const policy = '/usr/sbin/policy-rc.d'
  const ownPolicy = !existsSync(policy)
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 })
  try {
    // Other work on the machine may hold dpkg's lock for a while: wait for it rather than fail.
    const lock = ['-o', 'DPkg::Lock::Timeout=300']
    aptGet([...lock, 'update', '-qq'])
    aptGet([...lock, 'install', '-y', '-qq', '--no-install-recommends', ...packages])
  } finally {
    if (ownPolicy) rmSync(policy, { force: true })
  }
  const still = missing.filter((b) => !has(b))
  if (still.length > 0) throw new Error(`bench: still missing after apt-get: ${still.join(', ')}`)
}

function aptGet(args: string[]): void {
  const r = spawnSync('apt-get', args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (r.status !== 0) throw new Error(`bench: apt-get ${args.join(' ')} failed:\n${r.stderr || r.stdout}`)
}

/** Versions for the report, e.g. "wrk 4.1.0 [epoll]". */
export function toolVersions(): Record<string, string> {
  const first = (s: string | undefined) => s?.split('\n')[0]?.trim() ?? 'unknown'
  return {
    // `wrk -v` prints its version then exits 1, so read it through sh; drop the copyright line part.
    wrk: first(runSync('sh', ['-c', 'wrk -v 2>&1 | head -1 || true'])).replace(/\s*Copyright.*$/, ''),
    h2load: first(runSync('h2load', ['--version'])),
    nginx: first(runSync('sh', ['-c', 'nginx -v 2>&1'])).replace(/^nginx version:\s*/, ''),
  }
}
