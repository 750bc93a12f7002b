/**
 * Summarises a V8 .cpuprofile (from node --cpu-prof): self time per function and per origin
 * (the service's code, each npm package, Node internals, GC, idle), to say what limits throughput.
 */
import { readFileSync } from 'node:fs'

type CallFrame = { functionName: string; url: string; lineNumber: number }
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number }
/** The parts of the .cpuprofile format read here. */
export type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number }

/** Microseconds since the profile started: only samples in this window count (the load, not the start-up). */
export type Window = { fromUs: number; toUs: number }

export type ProfileRow = { name: string; selfMs: number; share: number }
export type ProfileSummary = { totalMs: number; functions: ProfileRow[]; origins: ProfileRow[] }

/** Where a function comes from: "service", "npm:<package>", "node", or the V8 pseudo-frame's name. */
export function originOf(frame: CallFrame): string {
  const url = frame.url
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : 'native'
  if (url.startsWith('node:')) return 'node'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg !== null) return `npm:${pkg[1]}`
  if (/\/(dist|src)\//.test(url)) return 'service'
  return 'other'
}

/** "fnName (path/file.js:line)", with the path shortened to what follows node_modules/ or the repo root. */
export function frameName(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)'
  if (frame.url === '') return name
  const short = frame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*?\/(dist|src)\//, '$1/')
  return `${name} (${short}:${frame.lineNumber + 1})`
}

/**
 * Self time per function and per origin, largest first; a sample's time is its time delta. With a
 * window, samples outside it (start-up, record loading, shutdown) are left out.
 */
export function summariseProfile(profile: CpuProfile, top = 15, window?: Window): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const fn = new Map<string, number>()
  const origin = new Map<string, number>()
  let totalUs = 0
  let at = 0
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time since the previous sample: it belongs to sample i.
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0)
    at += dt
    const node = byId.get(id)
    if (node === undefined || (window !== undefined && (at < window.fromUs || at > window.toUs))) return
    totalUs += dt
    const key = frameName(node.callFrame)
    fn.set(key, (fn.get(key) ?? 0) + dt)
    const o = originOf(node.callFrame)
    origin.set(o, (origin.get(o) ?? 0) + dt)
  })
  const rows = (m: Map<string, number>, n: number): ProfileRow[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, selfMs: us / 1e3, share: totalUs > 0 ? us / totalUs : 0 }))
  return { totalMs: totalUs / 1e3, functions: rows(fn, top), origins: rows(origin, 12) }
}

export function summariseProfileFile(file: string, top = 15, window?: Window): ProfileSummary {
  return summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top, window)
}

/** A markdown table of a summary's rows. */
export function profileTable(rows: readonly ProfileRow[], heading: string): string {
  const lines = rows.map(
    (r) => `| ${r.name.replace(/\|/g, '\\|')} | ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} % |`,
  )
  return [`| ${heading} | self ms | share |`, '|---|---:|---:|', ...lines].join('\n')
}
