/**
 * Runs generated cases (cases.ts) against a running service and checks, for every response:
 * no 5xx; the error body and CORS on every error (the JSON-RPC error body on /mcp); nosniff;
 * exactly one response per well-formed request and at most one per hostile one, in order; a served
 * API answer always counted (RateLimit field present). Between batches it checks that the process
 * is up and reads its resident memory.
 */
import { connect } from 'node:net'
import { readFileSync } from 'node:fs'
import { createRng, hashSeed, sfc32 } from '../../scripts/corpus/prng.js'
import { parseResponses, type RawResponse } from '../support/raw-http.js'
import { nextCase, operations, type FuzzCase } from './cases.js'

export type FuzzOptions = {
  port: number
  pid: number
  seed: string
  /** Stop after this long, in ms. */
  durationMs: number
  /** … or after this many cases, whichever comes first. */
  maxCases?: number
  /** Connections open at once. Default 24. */
  concurrency?: number
  /** Record ids that exist (to read records, not only miss them). */
  ids: readonly string[]
  /** Called about once a second. */
  onProgress?: (stats: FuzzStats) => void
  /**
   * The last part of `durationMs` whose cases run one at a time, each timed on the service's main
   * thread (the event loop): what one request can cost. Default: 15 % of the run, at most 60 s.
   */
  costPhaseMs?: number
}

/** The costliest case of the cost phase, per request, on the service's event loop. */
type WorstCost = {
  kind: string
  /** CPU of the service's main thread while the case was answered, in ms. */
  cpuMs: number
  requests: number
  cpuPerRequestMs: number
  /** The case's first bytes, to replay it. */
  head: string
}

export type FuzzStats = {
  cases: number
  requests: number
  responses: number
  byStatus: Record<string, number>
  byKind: Record<string, number>
  violations: string[]
  rssStartKiB: number
  rssEndKiB: number
  rssMaxKiB: number
  /** Highest RSS seen in the first half of the run: what the second half is compared with. */
  rssFirstHalfMaxKiB: number
  /**
   * How much higher RSS went in the second half than in the first. V8 grows its heap in steps under
   * load, so RSS alone is no leak detector; a process whose memory is bounded levels off, and a leak
   * keeps growing with the requests served.
   */
  rssSecondHalfGrowthKiB: number
  seconds: number
  /** Cases timed one at a time at the end of the run (cost phase). */
  costCases: number
  /** The highest CPU per request the cost phase found, per kind of case. */
  worstCpuPerRequestMsByKind: Record<string, number>
  worst: WorstCost | undefined
}

/**
 * CPU time of a process's main thread, in ns: the first field of /proc/<pid>/schedstat (the thread
 * group leader's). Nanoseconds, where /proc/<pid>/stat counts 10 ms ticks; and the main thread is the
 * event loop, the one a costly request takes from every other.
 */
function mainThreadCpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0])
}

/**
 * Bounded memory: RSS levels off. V8 grows its heap in steps of tens of MiB under load, so the bound
 * on the second half leaves room for one step (seen: +25 to +70 MiB on Node 20 and 24), while a leak
 * of 10 KiB per request adds about 150 MiB over the second half of the 45 s run, and far more over a
 * long one.
 */
export const MAX_SECOND_HALF_GROWTH_MIB = 128
/** …and RSS stays far below what a per-connection leak reaches (seen: 230–480 MiB at most; Node 24 keeps a larger heap). */
export const MAX_RSS_MIB = 768

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN)
}

/** Sends one case on its own connection and reads until every expected answer came, the server closed, or it went quiet. */
function exchange(
  port: number,
  c: FuzzCase,
): Promise<{ responses: RawResponse[]; leftover: Buffer; ended: string }> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let settled = false
    // How the exchange ended, for a violation's report: who closed, after how long, with how many bytes.
    const finish = (why: string) => {
      if (settled) return
      settled = true
      clearTimeout(quiet)
      clearTimeout(cap)
      socket.destroy()
      const data = Buffer.concat(chunks)
      resolve({
        ...parseResponses(data, c.methods),
        ended: `${why} after ${Date.now() - started} ms, ${data.length} bytes received`,
      })
    }
    let quiet: NodeJS.Timeout | undefined
    const cap = setTimeout(() => finish('15 s cap'), 15_000)
    const arm = (ms: number) => {
      clearTimeout(quiet)
      quiet = setTimeout(() => finish(`quiet for ${ms} ms`), ms)
    }
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      // Stop as soon as every request has its answer; wait a little for a stray extra one. A
      // "100 Continue" is no answer: counted as one, it stopped the read 30 ms into the final
      // response's body when that body (a download) took longer to arrive.
      const answers = parseResponses(Buffer.concat(chunks), c.methods).responses.filter(
        (r) => r.status >= 200,
      )
      if (answers.length >= c.requests) arm(30)
      else arm(2_000)
    })
    socket.on('close', () => finish('closed by the server'))
    socket.on('error', (err: NodeJS.ErrnoException) => finish(`socket error ${err.code ?? err.message}`))
    socket.on('connect', () => {
      socket.write(c.bytes)
      arm(c.wellFormed > 0 ? 5_000 : 2_000)
    })
  })
}

const SERVED_API = (json: any) =>
  json !== undefined &&
  (('results' in json && 'total' in json) ||
    'openapi' in json ||
    json.records?.by_kind !== undefined ||
    ('id' in json && 'kind' in json) ||
    json.jsonrpc === '2.0')

/** The rules every response obeys; returns what is wrong, or nothing. `method` is its request's. */
function checkResponse(res: RawResponse, method: string, pages = false): string | undefined {
  if (res.status >= 500) return `status ${res.status}`
  if (res.headers['x-content-type-options'] !== 'nosniff') return `status ${res.status} without nosniff`
  if (res.headers['access-control-allow-origin'] !== '*') return `status ${res.status} without CORS`
  // A page's error is a page: HTML, counted like the page.
  const pageError = pages && res.headers['content-type']?.startsWith('text/html') === true
  if (res.status >= 400 && pageError && res.headers['ratelimit'] === undefined)
    return `page error ${res.status} uncounted`
  if (res.status >= 400 && !pageError) {
    if (!res.headers['content-type']?.startsWith('application/json'))
      return `error ${res.status} without a JSON body`
    if (method === 'HEAD') return undefined // the headers of the GET answer, without its body
    const json = res.json
    const apiError =
      json?.error !== undefined &&
      typeof json.error.code === 'string' &&
      typeof json.error.message === 'string' &&
      Object.keys(json).length === 1
    const rpcError = json?.jsonrpc === '2.0' && typeof json.error?.message === 'string'
    if (!apiError && !rpcError)
      return `error ${res.status} body is not an error body: ${res.text.slice(0, 80)}`
  }
  if (
    (res.status === 200 || res.status === 304) &&
    SERVED_API(res.json) &&
    res.headers['ratelimit'] === undefined
  )
    return `served ${res.status} without RateLimit (not counted)`
  if (
    res.status === 307 &&
    (res.headers['ratelimit'] === undefined || !res.headers['location']?.startsWith('/'))
  )
    return `307 to ${res.headers['location']} or uncounted`
  return undefined
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzStats> {
  const rng = createRng(sfc32(hashSeed(options.seed)))
  const doc = await (await fetch(`http://127.0.0.1:${options.port}/api/v1/openapi.json?po_live=1`)).json()
  const ops = operations(doc)
  const started = Date.now()
  const stats: FuzzStats = {
    cases: 0,
    requests: 0,
    responses: 0,
    byStatus: {},
    byKind: {},
    violations: [],
    rssStartKiB: rssKiB(options.pid),
    rssEndKiB: 0,
    rssMaxKiB: 0,
    rssFirstHalfMaxKiB: 0,
    rssSecondHalfGrowthKiB: 0,
    seconds: 0,
    costCases: 0,
    worstCpuPerRequestMsByKind: {},
    worst: undefined,
  }
  stats.rssMaxKiB = stats.rssStartKiB
  const samples: { at: number; kib: number }[] = [{ at: started, kib: stats.rssStartKiB }]
  const deadline = started + options.durationMs
  const costPhaseMs = options.costPhaseMs ?? Math.min(60_000, options.durationMs * 0.15)
  let lastProgress = started
  let concurrentUntil = deadline - costPhaseMs
  const more = () =>
    Date.now() < deadline &&
    (options.maxCases === undefined || stats.cases < options.maxCases) &&
    stats.violations.length < 50
  const worker = async (timed: boolean) => {
    while (more() && (timed || Date.now() < concurrentUntil)) {
      const c = nextCase(rng, ops, options.ids)
      const cpuBefore = timed ? mainThreadCpuNs(options.pid) : 0
      stats.cases++
      stats.requests += c.requests
      stats.byKind[c.kind] = (stats.byKind[c.kind] ?? 0) + 1
      const { responses: all, leftover, ended } = await exchange(options.port, c)
      if (timed) noteCost(stats, c, (mainThreadCpuNs(options.pid) - cpuBefore) / 1e6)
      // "100 Continue" is an interim answer to `Expect: 100-continue`, not a response of its own.
      const responses = all.filter((r) => r.status >= 200)
      stats.responses += responses.length
      const where = `${c.kind} ${JSON.stringify(c.bytes.subarray(0, 120).toString('latin1'))} (${c.bytes.length} bytes sent; ended: ${ended})`
      if (responses.length > c.requests)
        stats.violations.push(`${responses.length} responses to ${c.requests} request(s): ${where}`)
      if (responses.length < c.wellFormed)
        stats.violations.push(
          `${responses.length} responses to ${c.wellFormed} well-formed request(s): ${where}`,
        )
      if (leftover.length > 0)
        stats.violations.push(
          `unparseable bytes after the responses: ${JSON.stringify(leftover.subarray(0, 80).toString('latin1'))} for ${where}`,
        )
      for (const [i, res] of responses.entries()) {
        stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1
        const problem = checkResponse(res, c.methods[i] ?? 'GET', c.pages)
        if (problem !== undefined) stats.violations.push(`${problem}: ${where}`)
      }
      if (Date.now() - lastProgress >= 1_000) {
        lastProgress = Date.now()
        const rss = rssKiB(options.pid) // throws when the process is gone: that is a failure too
        stats.rssMaxKiB = Math.max(stats.rssMaxKiB, rss)
        samples.push({ at: lastProgress, kib: rss })
        options.onProgress?.({ ...stats, seconds: (Date.now() - started) / 1000 })
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 24 }, () => worker(false)))
  // Then one case at a time, so that the event loop's CPU while it is answered is that case's alone.
  concurrentUntil = 0
  await worker(true)
  stats.rssEndKiB = rssKiB(options.pid)
  stats.rssMaxKiB = Math.max(stats.rssMaxKiB, stats.rssEndKiB)
  const ended = Date.now()
  samples.push({ at: ended, kib: stats.rssEndKiB })
  const half = started + (ended - started) / 2
  stats.rssFirstHalfMaxKiB = Math.max(...samples.filter((s) => s.at <= half).map((s) => s.kib))
  stats.rssSecondHalfGrowthKiB = Math.max(
    0,
    Math.max(...samples.filter((s) => s.at > half).map((s) => s.kib)) - stats.rssFirstHalfMaxKiB,
  )
  stats.seconds = (ended - started) / 1000
  return stats
}

/** Keeps the case's CPU per request if it is its kind's highest, or the highest of all. */
function noteCost(stats: FuzzStats, c: FuzzCase, cpuMs: number): void {
  stats.costCases++
  const perRequest = cpuMs / c.requests
  stats.worstCpuPerRequestMsByKind[c.kind] = Math.max(
    stats.worstCpuPerRequestMsByKind[c.kind] ?? 0,
    perRequest,
  )
  if (stats.worst !== undefined && stats.worst.cpuPerRequestMs >= perRequest) return
  stats.worst = {
    kind: c.kind,
    cpuMs,
    requests: c.requests,
    cpuPerRequestMs: perRequest,
    head: JSON.stringify(c.bytes.subarray(0, 160).toString('latin1')),
  }
}

/** The summary line of the cost phase: the worst case's CPU per request, and the worst of each kind. */
export function describeCost(stats: FuzzStats): string {
  if (stats.worst === undefined) return 'cost phase: no case timed'
  const w = stats.worst
  const byKind = Object.entries(stats.worstCpuPerRequestMsByKind)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
    .join(', ')
  return (
    `CPU per request (event loop, ${stats.costCases} cases timed one at a time): worst ${w.cpuPerRequestMs.toFixed(1)} ms ` +
    `(${w.kind}, ${w.cpuMs.toFixed(1)} ms for ${w.requests} request(s): ${w.head}); worst by kind, ms: ${byKind}`
  )
}

/**
 * The reference the cost phase is judged against, measured the same way in the same run: the
 * service's main-thread CPU for an ordinary request, a search the cache cannot answer (a word of the
 * records and a random one, each time new), one at a time; the median of `rounds`, in ms. A busy
 * machine slows it as it slows the fuzzed cases, so a bound stated as a ratio of it holds at any load.
 */
export async function referenceCpuPerRequestMs(port: number, pid: number, rounds = 40): Promise<number> {
  const words = ['permis', 'vitesse', 'alcool', 'stationnement', 'priorite', 'conduite']
  const costs: number[] = []
  for (let i = 0; i < rounds; i++) {
    const q = `${words[i % words.length]} ${Math.random().toString(36).slice(2, 8)}`
    const bytes = Buffer.from(
      `GET /api/v1/facts?q=${encodeURIComponent(q)}&po_live=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    )
    const before = mainThreadCpuNs(pid)
    const { responses } = await exchange(port, {
      kind: 'reference',
      bytes,
      methods: ['GET'],
      wellFormed: 1,
      requests: 1,
    })
    costs.push((mainThreadCpuNs(pid) - before) / 1e6)
    if (responses[0]?.status !== 200)
      throw new Error(`reference search answered ${responses[0]?.status ?? 'nothing'}`)
  }
  costs.sort((a, b) => a - b)
  return costs[Math.floor(costs.length / 2)]!
}
