/**
 * Scale facts for one records file (docs/scale.md quotes them): load + index time, resident memory
 * after GC, and the in-process search time over a fixed mix of 50 queries. Prints one JSON object.
 *
 * Run: node --expose-gc --max-old-space-size=20000 --import tsx bench/scale.ts FILE
 *
 * Records are loaded exactly as the server loads them (FileRecordSource.load, which streams NDJSON).
 */
import { statSync } from 'node:fs'
import { FileRecordSource } from '../src/core/records/file-source.js'
import type { RecordBatch } from '../src/core/records/source.js'
import type { Kind } from '../src/core/records/record.js'
import { RecordIndex, toIndexQuery } from '../src/core/search/record-index.js'

type Query = { q?: string; kind?: Kind; region?: 'france'; limit?: number; offset?: number }

/** 50 queries: learner queries from test/relevance, the same with filters, paging, and listings without q. */
const QUERY_MIX: Query[] = [
  ...[
    'priorité à droite|priorite a droite|vitesse sur autoroute|vitesse en ville|distance de sécurité',
    'ceinture arrière|siège auto enfant|feu rouge|sens interdit|ligne continue|zone 30|feux de brouillard',
    'pneus hiver|délit de fuite|rouler sans assurance|permis probatoire points|récupérer des points',
    "taux d'alcoolémie|telephone au volant|carrefour giratoire|rond-point|panneaux|angle mort",
    'fatigue au volant|passage à niveau|créneau|PLS|défibrillateur|permis à 17 ans|examen du code',
  ]
    .join('|')
    .split('|')
    .map((q) => ({ q })),
  { q: 'vitesse', kind: 'fact' },
  { q: 'priorité', kind: 'lesson' },
  { q: 'alcool', kind: 'expertise' },
  { q: 'permis', kind: 'article' },
  { q: 'forfait', kind: 'offer' },
  { q: 'enseignant', kind: 'person' },
  { q: 'calculateur', kind: 'tool' },
  { q: 'conduite', kind: 'page' },
  { q: 'autoroute', region: 'france' },
  { q: 'piétons cyclistes', region: 'france' },
  { q: 'conduite accompagnée', region: 'france' },
  { q: 'vitesse', limit: 50, offset: 40 },
  { q: 'points', limit: 50, offset: 500 },
  { q: 'la', limit: 10 },
  {},
  { kind: 'lesson' },
  { kind: 'fact', region: 'france' },
  { region: 'france', offset: 5000 },
  { kind: 'offer', limit: 50 },
  { kind: 'person', offset: 100 },
]

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

async function main(): Promise<void> {
  const path = process.argv[2]
  if (!path) throw new Error('usage: bench/scale.ts FILE')
  const baseline = memory()
  let t = process.hrtime.bigint()
  let batch: RecordBatch | undefined
  try {
    batch = await new FileRecordSource(path).load()
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }
    const failure = {
      code: e.code ?? e.cause?.code,
      message: e.message.slice(0, 300),
      afterMs: round(ms(process.hrtime.bigint() - t)),
    }
    console.log(
      JSON.stringify({
        file: path,
        bytes: statSync(path).size,
        loader: 'FileRecordSource',
        loadError: failure,
        peakRssMiB: MiB(process.resourceUsage().maxRSS * 1024),
        node: process.version,
      }),
    )
    process.exitCode = 2
    return
  }
  const loadMs = ms(process.hrtime.bigint() - t)
  t = process.hrtime.bigint()
  const index = new RecordIndex(batch)
  const indexMs = ms(process.hrtime.bigint() - t)
  // eslint-disable-next-line no-useless-assignment -- not useless: drops the last reference, so the raw batch can be collected before memory is measured
  batch = undefined
  const mem = memory()
  const peakRssMiB = MiB(process.resourceUsage().maxRSS * 1024)

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

  console.log(
    JSON.stringify({
      file: path,
      bytes: statSync(path).size,
      records: index.size,
      loader: 'FileRecordSource',
      node: process.version,
      loadMs: round(loadMs),
      indexMs: round(indexMs),
      memory: { baselineRssMiB: baseline.rssMiB, ...mem, peakRssMiB },
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
    }),
  )
}

await main()
