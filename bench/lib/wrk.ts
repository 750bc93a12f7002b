/** Runs wrk (closed loop, pinned to the load core) over a request mix, and parses what it prints. */
import { resolve } from 'node:path'
import { LOAD_CPU, run } from './processes.js'

/** One wrk run: throughput and closed-loop latency (in ms). */
export type WrkResult = {
  requests: number
  durationS: number
  rps: number
  /** Mean bytes read per response, headers included. */
  bytesPerRequest: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  /** Socket errors (connect/read/write/timeout) plus non-2xx/3xx responses. */
  errors: number
}

export type WrkOptions = {
  /** Origin, e.g. http://127.0.0.1:8101 (paths come from the mix). */
  url: string
  /** Lua file returning the request list (see mix-file.ts). */
  mixFile: string
  durationS: number
  connections: number
}

const SCRIPT = resolve(import.meta.dirname, '../wrk/mix.lua')

/** Runs wrk -t1 pinned to the load core; `-d` and `--timeout` bound it, plus a hard kill margin. */
export async function runWrk(o: WrkOptions): Promise<WrkResult> {
  const args = [
    '-t1',
    `-c${o.connections}`,
    `-d${o.durationS}s`,
    '--timeout',
    '5s',
    '--latency',
    '-s',
    SCRIPT,
    o.url,
    '--',
    o.mixFile,
  ]
  const out = await run('wrk', args, LOAD_CPU, (o.durationS + 30) * 1_000)
  return parseWrkOutput(out)
}

/** Parses the BENCH_JSON line of bench/wrk/mix.lua; falls back to wrk's own text summary without it. */
export function parseWrkOutput(out: string): WrkResult {
  const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (line !== undefined) return fromJson(JSON.parse(line.slice('BENCH_JSON '.length)) as BenchJson)
  return parseWrkText(out)
}

type BenchJson = {
  requests: number
  duration_us: number
  bytes: number
  errors: Record<'connect' | 'read' | 'write' | 'status' | 'timeout', number>
  latency_us: Record<'p50' | 'p90' | 'p99' | 'max', number>
}

function fromJson(j: BenchJson): WrkResult {
  const durationS = j.duration_us / 1e6
  const e = j.errors
  return {
    requests: j.requests,
    durationS,
    rps: j.requests / durationS,
    bytesPerRequest: j.requests > 0 ? j.bytes / j.requests : 0,
    p50Ms: j.latency_us.p50 / 1e3,
    p90Ms: j.latency_us.p90 / 1e3,
    p99Ms: j.latency_us.p99 / 1e3,
    maxMs: j.latency_us.max / 1e3,
    errors: e.connect + e.read + e.write + e.status + e.timeout,
  }
}

const UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3 }
const SIZE: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }

/** "657.00us" → 0.657 (ms). */
export function parseDurationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim())
  if (m === null) throw new Error(`wrk: unreadable duration "${text}"`)
  return Number(m[1]) * UNIT_MS[m[2]!]!
}

/** wrk's text summary (run with --latency): "Requests/sec:", "N requests in Xs, Y read", the distribution. */
export function parseWrkText(out: string): WrkResult {
  const need = (re: RegExp, what: string) => {
    const m = re.exec(out)
    if (m === null) throw new Error(`wrk: no ${what} in output:\n${out}`)
    return m
  }
  const total = need(/(\d+) requests in ([\d.]+\w+), ([\d.]+)(\w+) read/, 'request count')
  const requests = Number(total[1])
  const durationS = parseDurationMs(total[2]!) / 1e3
  const bytes = Number(total[3]) * (SIZE[total[4]!] ?? 1)
  const pct = (p: string) =>
    parseDurationMs(need(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm'), `${p}% latency`)[1]!)
  const max = need(/Latency\s+\S+\s+\S+\s+(\S+)/, 'latency line')[1]!
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  const errors = (socket?.slice(1).reduce((s, n) => s + Number(n), 0) ?? 0) + Number(non2xx?.[1] ?? 0)
  return {
    requests,
    durationS,
    rps: Number(need(/Requests\/sec:\s+([\d.]+)/, 'Requests/sec')[1]),
    bytesPerRequest: requests > 0 ? bytes / requests : 0,
    p50Ms: pct('50'),
    p90Ms: pct('90'),
    p99Ms: pct('99'),
    maxMs: parseDurationMs(max),
    errors,
  }
}
