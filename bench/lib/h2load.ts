/**
 * Latency at a fixed offered load, with h2load --rps (Debian has no wrk2). wrk's closed loop keeps
 * every connection busy, so its p99 is mostly queueing; at half the maximum rate the p99 says how long
 * a request takes when the server is busy but not saturated.
 *
 * Caveat: with HTTP/1.1 a connection carries one request at a time, so a request due while the previous
 * one is still in flight waits, and that wait is not counted (coordinated omission). At half load this
 * rarely happens; `achievedRps` well below `offeredRps` says it did.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOAD_CPU, run } from './processes.js'
import { percentileSorted } from './stats.js'

export type FixedRateResult = {
  offeredRps: number
  achievedRps: number
  requests: number
  p50Ms: number
  p99Ms: number
  p999Ms: number
  /** Responses other than 2xx/3xx, plus requests h2load counted as failed. */
  errors: number
}

export type FixedRateOptions = {
  /** Origin, e.g. http://127.0.0.1:8101. */
  url: string
  /** Request targets, cycled in order by each connection (h2load cannot vary headers per request). */
  paths: readonly string[]
  rps: number
  durationS: number
  connections: number
  /** Extra request headers, "name: value". */
  headers?: readonly string[]
  /** POST this body (MCP). */
  body?: string
  workDir: string
}

/** Runs h2load pinned to the load core, and reads latencies from its per-request log. */
export async function runFixedRate(o: FixedRateOptions): Promise<FixedRateResult> {
  const input = join(o.workDir, 'h2load-uris.txt')
  const log = join(o.workDir, 'h2load.log')
  writeFileSync(input, o.paths.map((p) => o.url + p).join('\n') + '\n')
  rmSync(log, { force: true }) // h2load appends to an existing log
  const args = [
    '--h1',
    '-t1',
    `-c${o.connections}`,
    `-D${o.durationS}`,
    '--warm-up-time=2',
    `--rps=${(o.rps / o.connections).toFixed(3)}`,
  ]
  args.push('-i', input, `--log-file=${log}`, ...(o.headers ?? []).flatMap((h) => ['-H', h]))
  if (o.body !== undefined) {
    const bodyFile = join(o.workDir, 'h2load-body.json')
    writeFileSync(bodyFile, o.body)
    args.push('-d', bodyFile)
  }
  const out = await run('h2load', args, LOAD_CPU, (o.durationS + 30) * 1_000)
  const summary = parseH2loadSummary(out)
  const latencies = parseH2loadLog(readFileSync(log, 'utf8'))
  return fixedRateResult(o.rps, o.durationS, latencies, summary.failed)
}

export type H2loadLog = { latenciesUs: number[]; errors: number }

/** Parses --log-file lines "start_us<TAB>status<TAB>elapsed_us"; latencies come back sorted. */
export function parseH2loadLog(text: string): H2loadLog {
  const latenciesUs: number[] = []
  let errors = 0
  for (const line of text.split('\n')) {
    const [, status, elapsed] = line.split('\t')
    if (elapsed === undefined) continue
    const code = Number(status)
    if (!(code >= 200 && code < 400)) errors++
    latenciesUs.push(Number(elapsed))
  }
  latenciesUs.sort((a, b) => a - b)
  return { latenciesUs, errors }
}

/** The "requests: N total, … F failed, E errored, T timeout" line of h2load's summary. */
export function parseH2loadSummary(out: string): { total: number; failed: number } {
  const m =
    /requests: (\d+) total, \d+ started, \d+ done, \d+ succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(
      out,
    )
  if (m === null) throw new Error(`h2load: no summary in output:\n${out}`)
  return { total: Number(m[1]), failed: Number(m[2]) + Number(m[3]) + Number(m[4]) }
}

export function fixedRateResult(
  offeredRps: number,
  durationS: number,
  log: H2loadLog,
  failed: number,
): FixedRateResult {
  const l = log.latenciesUs
  if (l.length === 0) throw new Error('h2load: no request completed')
  return {
    offeredRps,
    achievedRps: l.length / durationS,
    requests: l.length,
    p50Ms: percentileSorted(l, 50) / 1e3,
    p99Ms: percentileSorted(l, 99) / 1e3,
    p999Ms: percentileSorted(l, 99.9) / 1e3,
    errors: log.errors + failed,
  }
}
