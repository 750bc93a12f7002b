/** The measuring steps of a run: warm-up, interleaved passes, fixed-rate latency, resident memory. */
import { busyShare, cpuTicks, groupCpuSeconds, othersCores, snapshot } from './cpu.js'
import { runFixedRate } from './h2load.js'
import { residentMiB } from './machine.js'
import { SERVER_CPU, isStopping } from './processes.js'
import type { Measurement, RunOptions } from './plan.js'
import type { PreparedMix } from './prepare-mixes.js'
import { cpuMicrosPerRequest, type TargetMeasurements } from './report.js'
import type { Server, ServerId } from './servers.js'
import { median, rotation } from './stats.js'
import { runWrk, type WrkResult } from './wrk.js'

export type Bench = {
  measurements: readonly Measurement[]
  servers: ReadonlyMap<ServerId, Server>
  mixes: ReadonlyMap<string, PreparedMix>
  options: RunOptions
  workDir: string
  log: (line: string) => void
}

const wrk = (b: Bench, m: Measurement, durationS: number) =>
  runWrk({
    url: b.servers.get(m.server)!.url,
    mixFile: b.mixes.get(m.id)!.luaFile,
    durationS,
    connections: b.options.connections,
  })

/** One unrecorded run per target (JIT, caches, connection pools), then each Node server's VmRSS. */
export async function warmUp(b: Bench): Promise<Map<ServerId, number>> {
  for (const m of b.measurements) {
    b.log(`warm-up ${m.id} (${b.options.warmupS} s)`)
    await wrk(b, m, b.options.warmupS)
  }
  const rss = new Map<ServerId, number>()
  for (const [id, s] of b.servers) {
    const mib = id === 'nginx' ? undefined : residentMiB(s.pid)
    if (mib !== undefined) rss.set(id, mib)
  }
  return rss
}

type PerPass<T> = Map<string, (T | undefined)[]>
export type PassResults = {
  runs: PerPass<WrkResult>
  otherCores: PerPass<number>
  serverCpuBusy: PerPass<number>
  /** CPU seconds the target's server used during the run. */
  serverCpuSeconds: PerPass<number>
}

/**
 * Every target once per pass, in an order rotated each pass, so slow drift of the machine (other
 * work, thermal state) hits every target alike and same-pass ratios cancel it. Each run also records
 * the CPU other processes used meanwhile. A failed run is recorded as missing, not retried.
 */
export async function runPasses(b: Bench): Promise<PassResults> {
  const perPass = <T>(): PerPass<T> => new Map(b.measurements.map((m) => [m.id, [] as (T | undefined)[]]))
  const [runs, otherCores, serverCpuBusy, serverCpuSeconds] = [
    perPass<WrkResult>(),
    perPass<number>(),
    perPass<number>(),
    perPass<number>(),
  ]
  // Servers lead their own process groups; the orchestrator is this process and tsx's parent.
  const ownGroups = new Set([...b.servers.values()].map((s) => s.pid))
  const ownPids = new Set([process.pid, process.ppid])
  for (let pass = 0; pass < b.options.passes; pass++) {
    for (const m of rotation(b.measurements, pass)) {
      try {
        const [before, cpuBefore] = [snapshot(), cpuTicks(SERVER_CPU)]
        const startedAt = performance.now()
        const r = await wrk(b, m, b.options.durationS)
        const [after, elapsedS] = [snapshot(), (performance.now() - startedAt) / 1e3]
        const others = othersCores(before, after, elapsedS, ownGroups, ownPids)
        const busy = busyShare(cpuBefore, cpuTicks(SERVER_CPU))
        const serverCpu = groupCpuSeconds(before, after, b.servers.get(m.server)!.pid)
        runs.get(m.id)![pass] = r
        otherCores.get(m.id)![pass] = others
        serverCpuBusy.get(m.id)![pass] = busy
        serverCpuSeconds.get(m.id)![pass] = serverCpu
        const cost = cpuMicrosPerRequest(r, serverCpu)
        const perRequest = cost === undefined ? '' : `, ${Math.round(cost)} µs CPU per request`
        const extra = `${perRequest}, CPU ${SERVER_CPU} busy ${Math.round(busy * 100)} %${r.errors ? `, ${r.errors} errors` : ''}${others >= 0.05 ? `, other processes ${others.toFixed(2)} cores` : ''}`
        b.log(
          `pass ${pass + 1}/${b.options.passes} ${m.id}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms.toFixed(2)} ms${extra}`,
        )
      } catch (err) {
        if (isStopping()) throw err
        b.log(`pass ${pass + 1} ${m.id} failed: ${(err as Error).message}`)
      }
    }
  }
  return { runs, otherCores, serverCpuBusy, serverCpuSeconds }
}

/** p99 at half of each target's median maximum, offered at a fixed rate by h2load. */
export async function fixedRateRuns(b: Bench, passes: PassResults): Promise<TargetMeasurements[]> {
  const out: TargetMeasurements[] = []
  for (const m of b.measurements) {
    const runs = passes.runs.get(m.id) ?? []
    const done = runs.filter((p): p is WrkResult => p !== undefined)
    const t: TargetMeasurements = { id: m.id, label: m.label, passes: runs, floor: m.floor, goal: m.goal }
    Object.assign(t, {
      otherCores: passes.otherCores.get(m.id),
      serverCpuBusy: passes.serverCpuBusy.get(m.id),
      serverCpuSeconds: passes.serverCpuSeconds.get(m.id),
    })
    out.push(t)
    if (done.length === 0) continue
    const rps = Math.max(1, Math.round(median(done.map((p) => p.rps)) / 2))
    const mix = b.mixes.get(m.id)!.fixedRate
    try {
      const o = {
        url: b.servers.get(m.server)!.url,
        rps,
        durationS: b.options.fixedRateS,
        connections: b.options.connections,
        workDir: b.workDir,
      }
      t.fixedRate = await runFixedRate({ ...o, ...mix })
      b.log(`fixed rate ${m.id}: ${rps} req/s offered, p99 ${t.fixedRate.p99Ms.toFixed(2)} ms`)
    } catch (err) {
      if (isStopping()) throw err
      b.log(`fixed rate ${m.id} failed: ${(err as Error).message}`)
    }
  }
  return out
}
