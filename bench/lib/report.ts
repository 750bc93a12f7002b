/** Turns per-pass measurements into the results table (JSON and markdown) and the goal verdicts. Pure. */
import type { FixedRateResult } from './h2load.js'
import { median, medianPassRatio, range } from './stats.js'
import type { WrkResult } from './wrk.js'

/**
 * Goals: share of the req/s of the row's floor, the replay of the service's own answers on the same
 * mix (issue 45), and multiple of the peer baseline's (issue 7).
 */
export type Goal = { vsFloor?: number; vsPeer?: number }

export type TargetMeasurements = {
  id: string
  label: string
  /** One entry per pass, in pass order; undefined when that run failed. */
  passes: (WrkResult | undefined)[]
  fixedRate?: FixedRateResult
  rssMiB?: number
  /** Per pass: cores' worth of CPU other processes on the machine used during the run. */
  otherCores?: (number | undefined)[]
  /** Per pass: busy share (0–1) of the server's core; about 1 when the server is the limit. */
  serverCpuBusy?: (number | undefined)[]
  /** Per pass: CPU seconds the target's server used during the run. */
  serverCpuSeconds?: (number | undefined)[]
  /** Id of the replay row this one is divided by. */
  floor?: string
  goal?: Goal
}

export type TargetRow = {
  id: string
  label: string
  rps: { median: number; min: number; max: number }
  p50Ms: number
  p99Ms: number
  bytesPerResponse: number
  errors: number
  /** Same-pass ratio to the row's floor (the replay of the same mix). */
  vsFloor?: number
  vsReference?: number
  vsPeer?: number
  fixedRate?: FixedRateResult
  rssMiB?: number
  /** Highest CPU use by other processes during this target's runs, in cores. */
  maxOtherCores?: number
  /** Median busy share of the server's core during its runs (0–1). */
  serverCpuBusy?: number
  /** Median over passes of the server's CPU time per request, in µs. */
  cpuUsPerRequest?: number
  /**
   * The floor's CPU per request divided by this target's, same-pass, median over passes: the req/s
   * ratio to the floor the target would have if both had their core to themselves for the whole run.
   */
  vsFloorByCpu?: number
  goal?: Goal
  /** One line per goal, e.g. "×floor 0.91 (goal ≥ 0.90): met". */
  verdicts: { text: string; met: boolean }[]
}

const rpsOf = (m: TargetMeasurements | undefined) => (m?.passes ?? []).map((p) => p?.rps)

/** CPU µs the server spent per answered request in one run; undefined without CPU time or requests. */
export function cpuMicrosPerRequest(
  run: WrkResult | undefined,
  cpuSeconds: number | undefined,
): number | undefined {
  return run === undefined || cpuSeconds === undefined || cpuSeconds <= 0 || run.requests <= 0
    ? undefined
    : (cpuSeconds * 1e6) / run.requests
}

const cpuCostOf = (m: TargetMeasurements | undefined) =>
  (m?.passes ?? []).map((p, i) => cpuMicrosPerRequest(p, m?.serverCpuSeconds?.[i]))

/** One row per target that completed at least one pass; ratios are medians of same-pass ratios. */
export function summarise(
  all: readonly TargetMeasurements[],
  referenceId: string,
  peerId: string,
): TargetRow[] {
  const reference = all.find((m) => m.id === referenceId)
  const peer = all.find((m) => m.id === peerId)
  const rows: TargetRow[] = []
  for (const m of all) {
    const done = m.passes.filter((p): p is WrkResult => p !== undefined)
    if (done.length === 0) continue
    const [min, max] = range(done.map((p) => p.rps))
    const vsReference = m.id === referenceId ? 1 : medianPassRatio(rpsOf(m), rpsOf(reference))
    const vsPeer = m.id === peerId ? 1 : medianPassRatio(rpsOf(m), rpsOf(peer))
    const floor = all.find((f) => f.id === m.floor)
    const cpuCost = cpuCostOf(m)
    const vsFloor = floor === undefined ? undefined : medianPassRatio(rpsOf(m), rpsOf(floor))
    // The floor's cost over the target's: the req/s ratio both would have with their core to themselves.
    const vsFloorByCpu = floor === undefined ? undefined : medianPassRatio(cpuCostOf(floor), cpuCost)
    rows.push({
      id: m.id,
      label: m.label,
      rps: { median: median(done.map((p) => p.rps)), min, max },
      p50Ms: median(done.map((p) => p.p50Ms)),
      p99Ms: median(done.map((p) => p.p99Ms)),
      bytesPerResponse: median(done.map((p) => p.bytesPerRequest)),
      errors: done.reduce((s, p) => s + p.errors, 0),
      vsFloor,
      vsReference,
      vsPeer,
      fixedRate: m.fixedRate,
      rssMiB: m.rssMiB,
      maxOtherCores: maxDefined(m.otherCores ?? []),
      serverCpuBusy: medianDefined(m.serverCpuBusy ?? []),
      cpuUsPerRequest: medianDefined(cpuCost),
      vsFloorByCpu,
      goal: m.goal,
      verdicts: verdicts(m.goal, vsFloor, vsPeer, vsFloorByCpu),
    })
  }
  return rows
}

function medianDefined(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined)
  return defined.length === 0 ? undefined : median(defined)
}

function maxDefined(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined)
  return defined.length === 0 ? undefined : Math.max(...defined)
}

/** The goals are judged on req/s; the CPU ratio is shown beside ×floor's verdict, not judged. */
function verdicts(
  goal: Goal | undefined,
  vsFloor?: number,
  vsPeer?: number,
  vsFloorByCpu?: number,
): TargetRow['verdicts'] {
  const out: TargetRow['verdicts'] = []
  const check = (what: string, value: number | undefined, want: number | undefined, aside = '') => {
    if (want === undefined) return
    if (value === undefined) return out.push({ text: `${what}: not measured`, met: false })
    out.push({
      text: `${what} ${value.toFixed(2)} (goal ≥ ${want.toFixed(2)}): ${value >= want ? 'met' : 'NOT met'}${aside}`,
      met: value >= want,
    })
  }
  check(
    '×floor',
    vsFloor,
    goal?.vsFloor,
    vsFloorByCpu === undefined ? '' : ` (by CPU per request: ${vsFloorByCpu.toFixed(2)})`,
  )
  check('×peer', vsPeer, goal?.vsPeer)
  return out
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number | undefined) => (n === undefined ? '–' : n < 10 ? n.toFixed(2) : n.toFixed(1))
const cores = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(2))
const ratio = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(2))

/** The results table in markdown. */
export function markdownTable(rows: readonly TargetRow[]): string {
  const head =
    '| Target | req/s (median) | min–max | ×floor | ×reference | ×peer | p50 ms | p99 ms | p99 ms at ½ max (offered → achieved req/s) | bytes/resp | RSS MiB | errors | server core busy | other CPU (max cores) | server CPU µs/req | ×floor by CPU |'
  const sep = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
  const lines = rows.map((r) => {
    const f = r.fixedRate
    const fixed = f === undefined ? '–' : `${ms(f.p99Ms)} (${int(f.offeredRps)} → ${int(f.achievedRps)})`
    const rss = r.rssMiB === undefined ? '–' : int(r.rssMiB)
    return `| ${r.label} | ${int(r.rps.median)} | ${int(r.rps.min)}–${int(r.rps.max)} | ${ratio(r.vsFloor)} | ${ratio(r.vsReference)} | ${ratio(r.vsPeer)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${fixed} | ${int(r.bytesPerResponse)} | ${rss} | ${r.errors + (f?.errors ?? 0)} | ${r.serverCpuBusy === undefined ? '–' : `${Math.round(r.serverCpuBusy * 100)} %`} | ${cores(r.maxOtherCores)} | ${r.cpuUsPerRequest === undefined ? '–' : r.cpuUsPerRequest.toFixed(1)} | ${ratio(r.vsFloorByCpu)} |`
  })
  return [head, sep, ...lines].join('\n')
}

/** "- off: ×floor 0.91 (goal ≥ 0.90): met" lines for every target with a goal. */
export function markdownVerdicts(rows: readonly TargetRow[]): string {
  return rows
    .filter((r) => r.verdicts.length > 0)
    .map((r) => `- **${r.label}**: ${r.verdicts.map((v) => v.text).join('; ')}`)
    .join('\n')
}

/** Targets with at least one goal not met (these get a CPU profile). */
export const unmet = (rows: readonly TargetRow[]) => rows.filter((r) => r.verdicts.some((v) => !v.met))
