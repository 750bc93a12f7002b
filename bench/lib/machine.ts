/** What the results were measured on, and how busy the machine was: the figures mean nothing without it. */
import { cpus, totalmem } from 'node:os'
import { readFileSync } from 'node:fs'
import { toolVersions } from './apt.js'
import { runSync } from './processes.js'
import { nodeSupport } from './server-node.js'

export type Machine = {
  cpuModel: string
  cores: number
  memoryGiB: number
  node: string
  tools: Record<string, string>
  commit: string
  /** Uncommitted changes that `npm run build` compiled into dist/ ("M src/x.ts" lines); empty when clean. */
  uncommitted: string[]
  /** Share of CPU time other processes used in the second before the run (0–1). */
  busyBeforeRun: number
}

/** CPU busy share over `ms`, from /proc/stat (all cores). */
async function cpuBusy(ms = 1_000): Promise<number> {
  const read = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const idle = f[3]! + (f[4] ?? 0)
    return { idle, total: f.reduce((s, n) => s + n, 0) }
  }
  const a = read()
  await new Promise((r) => setTimeout(r, ms))
  const b = read()
  const total = b.total - a.total
  return total > 0 ? 1 - (b.idle - a.idle) / total : 0
}

/** `serverNode`: the version the servers under test run on (the bench itself may run on another). */
export async function describeMachine(serverNode: string): Promise<Machine> {
  const model =
    /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ??
    cpus()[0]?.model ??
    'unknown'
  return {
    cpuModel: model.trim(),
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node:
      serverNode === process.version
        ? `${serverNode} (${nodeSupport(serverNode)})`
        : `${serverNode} (${nodeSupport(serverNode)}; bench runner ${process.version})`,
    tools: toolVersions(),
    commit: runSync('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    // Read-only; other work shares the tree, so the build may hold changes not in the commit.
    uncommitted: (runSync('git', ['status', '--porcelain', '--', 'src', 'data', 'package.json']) ?? '')
      .split('\n')
      .filter((l) => l.trim() !== ''),
    busyBeforeRun: await cpuBusy(),
  }
}

/** Resident memory of a process in MiB (VmRSS of /proc/<pid>/status), or undefined once it is gone. */
export function residentMiB(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}
