/**
 * CPU used by processes other than the bench's own during a run. The machine is shared (other work,
 * tests, builds): a target measured while something else took a core looks slower than it is, so
 * every run records how much CPU the rest of the machine used meanwhile.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100

export type ProcessCpu = { pid: number; ppid: number; pgrp: number; name: string; ticks: number }

/** Parses /proc/<pid>/stat: the fields after the ")" that closes the command name. */
export function parseProcStat(text: string): ProcessCpu | undefined {
  const close = text.lastIndexOf(')')
  if (close === -1) return undefined
  const pid = Number(text.slice(0, text.indexOf(' ')))
  const name = text.slice(text.indexOf('(') + 1, close)
  const f = text.slice(close + 2).split(' ') // f[0] is field 3 (state)
  const [ppid, pgrp] = [Number(f[1]), Number(f[2])]
  const ticks = Number(f[11]) + Number(f[12]) // utime + stime, fields 14 and 15
  return Number.isFinite(ticks) ? { pid, ppid, pgrp, name, ticks } : undefined
}

/** CPU ticks of every process now, by pid. */
export function snapshot(): Map<number, ProcessCpu> {
  const out = new Map<number, ProcessCpu>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const p = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'))
      if (p !== undefined) out.set(p.pid, p)
    } catch {
      // exited while we were reading
    }
  }
  return out
}

/**
 * Part of the workload, not noise: kernel threads (children of kthreadd, pid 2: softirq work of the
 * loopback traffic lands there) and the Redis server the Redis quota case talks to.
 */
const isWorkload = (p: ProcessCpu) => p.pid === 2 || p.ppid === 2 || p.name === 'redis-server'

/**
 * Cores' worth of CPU (0–2 here) used between two snapshots by other processes: not in `ownGroups`,
 * not in `ownPids`, not part of the workload. A lower bound: processes that ended in between are not seen.
 */
export function othersCores(
  before: ReadonlyMap<number, ProcessCpu>,
  after: ReadonlyMap<number, ProcessCpu>,
  elapsedS: number,
  ownGroups: ReadonlySet<number>,
  ownPids: ReadonlySet<number>,
): number {
  let ticks = 0
  for (const [pid, p] of after) {
    if (ownGroups.has(p.pgrp) || ownPids.has(pid) || isWorkload(p)) continue
    ticks += p.ticks - (before.get(pid)?.ticks ?? 0)
  }
  return elapsedS > 0 ? ticks / TICKS_PER_SECOND / elapsedS : 0
}

/**
 * CPU seconds that the processes of group `pgrp` (a server, and nginx's workers) used between two
 * snapshots, every thread counted. Unlike req/s, this does not drop when the machine gives the
 * server's core to someone else for a while: per request, it is the cost of the server's own work
 * (and of the kernel's on its sockets, where charged to it). A process that ended in between is missed.
 */
export function groupCpuSeconds(
  before: ReadonlyMap<number, ProcessCpu>,
  after: ReadonlyMap<number, ProcessCpu>,
  pgrp: number,
): number {
  let ticks = 0
  for (const [pid, p] of after) if (p.pgrp === pgrp) ticks += p.ticks - (before.get(pid)?.ticks ?? 0)
  return ticks / TICKS_PER_SECOND
}

/** Busy and total ticks of one CPU (the "cpuN" line of /proc/stat); busy excludes idle and iowait. */
export function cpuTicks(
  cpu: string,
  stat = readFileSync('/proc/stat', 'utf8'),
): { busy: number; total: number } {
  const line = stat.split('\n').find((l) => l.startsWith(`cpu${cpu} `))
  if (line === undefined) throw new Error(`bench: no cpu${cpu} in /proc/stat`)
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number) // user nice system idle iowait irq softirq steal
  const total = f.reduce((s, n) => s + n, 0)
  return { busy: total - f[3]! - f[4]!, total }
}

/**
 * Share (0–1) of the time a CPU was busy between two cpuTicks readings. For the server's core this
 * includes the kernel's softirq work on the server's sockets, which no process is charged for: about
 * 1 means the server's core was the limit, well below means the load generator or something else was.
 */
export function busyShare(
  before: { busy: number; total: number },
  after: { busy: number; total: number },
): number {
  const total = after.total - before.total
  return total > 0 ? (after.busy - before.busy) / total : 0
}
