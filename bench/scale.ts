/**
 * Scale facts for one records file (docs/scale.md quotes them): the time until the snapshot is ready,
 * the serving thread's largest event-loop delay meanwhile, resident memory after GC (after the load,
 * and after the query mix: `memory.afterQueries`) and at its peak,
 * and the in-process search time over a fixed mix of 50 queries and over broad one-word queries.
 * Prints one JSON object.
 *
 * Run: node --expose-gc --import tsx bench/scale.ts FILE [--reload] (default Node settings otherwise,
 * as the service runs). With --reload, the file is then loaded again while the first snapshot is
 * still held, as a reload does (its build on cores − 1 threads), and the reload's time, largest
 * event-loop delay and peak RSS (sampled every 50 ms) are reported against the steady RSS.
 *
 * Records are loaded exactly as the server loads them: read, validated and indexed in a worker
 * thread (loadInWorker), the serving thread only swapping the finished snapshot in.
 */
import { statSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { toIndexQuery, type RecordIndex } from '../src/core/search/record-index.js'
import { loadInWorker } from '../src/core/snapshots/load-snapshot.js'
import { BROAD_WORDS, LONG_QUERIES, QUERY_MIX, type Query } from './lib/scale-queries.js'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('bench/scale: run with node --expose-gc')
const MiB = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)
const ms = (ns: bigint) => Number(ns) / 1e6
const quantile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
const round = (x: number) => +x.toFixed(3)

function memory() {
  gc!()
  gc!()
  const m = process.memoryUsage()
  return {
    rssMiB: MiB(m.rss),
    heapUsedMiB: MiB(m.heapUsed),
    externalMiB: MiB(m.external),
    arrayBuffersMiB: MiB(m.arrayBuffers),
  }
}

function timeQueries(index: RecordIndex, rounds: number) {
  const samples: number[] = []
  const perQuery = QUERY_MIX.map(() => [] as number[])
  for (let r = 0; r < rounds; r++) {
    QUERY_MIX.forEach((query, i) => {
      const started = process.hrtime.bigint()
      index.search(toIndexQuery({ ...query, limit: query.limit ?? 10, offset: query.offset ?? 0 }))
      const t = ms(process.hrtime.bigint() - started)
      samples.push(t)
      perQuery[i]!.push(t)
    })
  }
  return { samples: samples.sort((a, b) => a - b), perQuery: perQuery.map((s) => s.sort((a, b) => a - b)) }
}

function describeQuery(query: Query): string {
  return (
    Object.entries(query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&') || '(listing)'
  )
}

function timeBroad(index: RecordIndex) {
  const samples: number[] = []
  for (let round = 0; round < 20; round++) {
    for (const q of BROAD_WORDS) {
      const start = process.hrtime.bigint()
      index.search(toIndexQuery({ q, limit: 10, offset: 0 }))
      samples.push(ms(process.hrtime.bigint() - start))
    }
  }
  samples.sort((a, b) => a - b)
  return {
    queries: BROAD_WORDS,
    samples: samples.length,
    medianMs: round(quantile(samples, 0.5)),
    p99Ms: round(quantile(samples, 0.99)),
    maxMs: round(samples.at(-1)!),
  }
}

/**
 * The long queries with best match, and with all words required as the baseline of the same run:
 * rounds alternate the two, query by query, so both meet the same machine load.
 */
function timeLong(index: RecordIndex, rounds = 20) {
  const times = { best: [] as number[], all: [] as number[] }
  const perQuery = LONG_QUERIES.map(() => [] as number[])
  for (let round = 0; round < rounds; round++) {
    LONG_QUERIES.forEach((q, i) => {
      for (const match of round % 2 === 0 ? (['best', 'all'] as const) : (['all', 'best'] as const)) {
        const start = process.hrtime.bigint()
        index.search(toIndexQuery({ q, match, limit: 10, offset: 0 }))
        const t = ms(process.hrtime.bigint() - start)
        times[match].push(t)
        if (match === 'best') perQuery[i]!.push(t)
      }
    })
  }
  const summary = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b)
    return {
      samples: sorted.length,
      medianMs: round(quantile(sorted, 0.5)),
      p99Ms: round(quantile(sorted, 0.99)),
      maxMs: round(sorted.at(-1)!),
    }
  }
  const best = summary(times.best)
  const all = summary(times.all)
  const slowest = LONG_QUERIES.map((q, i) => ({
    q,
    medianMs: round(
      quantile(
        perQuery[i]!.sort((a, b) => a - b),
        0.5,
      ),
    ),
  }))
    .sort((a, b) => b.medianMs - a.medianMs)
    .slice(0, 3)
  return {
    queries: LONG_QUERIES.length,
    best,
    all,
    bestOverAllMedian: round(best.medianMs / Math.max(all.medianMs, 1e-3)),
    slowest,
  }
}

async function main(): Promise<void> {
  const path = process.argv[2]
  if (!path) throw new Error('usage: bench/scale.ts FILE [--reload]')
  const baseline = memory()
  const t = process.hrtime.bigint()
  // The serving thread's responsiveness during the build: it should only wait, then swap.
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const rssSamples: number[] = []
  const sampler = setInterval(() => rssSamples.push(process.memoryUsage.rss()), 200)
  let index: RecordIndex
  try {
    index = await loadInWorker(new FileRecordSource(path))
  } catch (err) {
    clearInterval(sampler)
    loop.disable()
    const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }
    console.log(
      JSON.stringify({
        file: path,
        bytes: statSync(path).size,
        loadError: { message: e.message.slice(0, 300), afterMs: round(ms(process.hrtime.bigint() - t)) },
        node: process.version,
      }),
    )
    process.exitCode = 2
    return
  }
  const readyMs = ms(process.hrtime.bigint() - t)
  clearInterval(sampler)
  loop.disable()
  const maxLoopDelayMs = round(loop.max / 1e6)
  const mem = memory()
  const peakRssMiB = MiB(Math.max(process.resourceUsage().maxRSS * 1024, ...rssSamples))
  const broad = timeBroad(index)
  timeLong(index, 2) // warm: decoded postings, work spaces
  const long = timeLong(index)

  const cold = timeQueries(index, 1) // first pass: builds per-filter listings
  const coldTotal = cold.samples.reduce((a, b) => a + b, 0)
  const rounds = Math.max(3, Math.min(20, Math.floor(60_000 / Math.max(coldTotal, 1))))
  const warm = timeQueries(index, rounds)
  const slowest = QUERY_MIX.map((q, i) => ({
    query: describeQuery(q),
    medianMs: round(quantile(warm.perQuery[i]!, 0.5)),
  }))
    .sort((a, b) => b.medianMs - a.medianMs)
    .slice(0, 5)

  // What the queries left resident (caches, work spaces, what malloc keeps of their arrays): the
  // steady RSS of a snapshot being served, and a reload's starting point.
  const afterQueries = memory()
  const reloadAt = process.argv.indexOf('--reload')
  let reload: object | undefined
  if (reloadAt !== -1) {
    // The same file by default (nothing changed); or the file named after --reload.
    const next = process.argv[reloadAt + 1]
    const steady = afterQueries.rssMiB
    const measured = await measureReload(
      next === undefined || next.startsWith('--') ? path : next,
      index,
      steady,
    )
    index = measured.next // the served snapshot is let go, as a swap lets it go
    reload = { ...measured.figures, steadyAfterRssMiB: memory().rssMiB }
  }

  console.log(
    JSON.stringify({
      file: path,
      bytes: statSync(path).size,
      records: index.size,
      loader: 'loadInWorker(FileRecordSource)',
      node: process.version,
      readyMs: round(readyMs),
      msPerThousandRecords: round(readyMs / (index.size / 1000)),
      maxLoopDelayMs,
      memory: { baselineRssMiB: baseline.rssMiB, ...mem, peakRssMiB, afterQueries },
      broad,
      long,
      search: {
        queries: QUERY_MIX.length,
        rounds,
        cold: {
          totalMs: round(coldTotal),
          medianMs: round(quantile(cold.samples, 0.5)),
          maxMs: round(cold.samples.at(-1)!),
        },
        warm: {
          samples: warm.samples.length,
          medianMs: round(quantile(warm.samples, 0.5)),
          p99Ms: round(quantile(warm.samples, 0.99)),
          meanMs: round(warm.samples.reduce((a, b) => a + b, 0) / warm.samples.length),
          maxMs: round(warm.samples.at(-1)!),
        },
        slowest,
      },
      reload,
    }),
  )
}

/** A load of `path` beside `current` (kept until the new one is ready), as a reload runs. */
async function measureReload(path: string, current: RecordIndex, steadyRssMiB: number) {
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  let peak = process.memoryUsage.rss()
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50)
  const started = process.hrtime.bigint()
  const next = await loadInWorker(new FileRecordSource(path), { serving: current })
  const reloadMs = ms(process.hrtime.bigint() - started)
  clearInterval(sampler)
  loop.disable()
  peak = Math.max(peak, process.memoryUsage.rss())
  const held = next.arenaBytes
  const figures = {
    file: path,
    readyMs: round(reloadMs),
    maxLoopDelayMs: round(loop.max / 1e6),
    steadyRssMiB,
    peakRssMiB: MiB(peak),
    peakOverSteady: round(MiB(peak) / steadyRssMiB),
    // How much of the new snapshot's record bytes it shares with the one it replaces.
    arenas: held.arenas,
    recordMiB: MiB(held.bytes),
    sharedMiB: MiB(next.sharedBytesWith(current)),
  }
  return { next, figures }
}

await main()
