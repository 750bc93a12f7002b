/**
 * The service's resident memory as a user runs it (docs/scale.md): `serve` on FILE from the compiled
 * package (run `npm run build` first), its RSS once /readyz answers 200, and again after a query mix
 * over HTTP: bench/scale.ts's 50 queries and the broad words alone and with filters, `rounds` times
 * at different offsets, the quota off. Linux only (it reads /proc). Prints one JSON object.
 *
 * Run: npx tsx bench/serve-memory.ts FILE [ROUNDS=5]
 *
 * Besides the RSS it gives malloc's heap (the `[heap]` mapping): what malloc keeps of freed blocks
 * shows there, which is where a query mix's growth would show first (docs/scale.md).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { BROAD_WORDS, QUERY_MIX, type Query } from './lib/scale-queries.js'

const PORT = 18_779
const BASE = `http://127.0.0.1:${PORT}`
/** The scale mix, and the broad words alone and with filters (answered from decoded postings, not prepared answers). */
const MIX: Query[] = [
  ...QUERY_MIX,
  ...BROAD_WORDS.flatMap((q): Query[] => [
    { q },
    { q, kind: 'lesson' },
    { q, region: 'france' },
    { q, kind: 'fact', region: 'france' },
  ]),
]

/** RSS and malloc's heap of a process, in MiB. */
function memoryOf(pid: number): { rssMiB: number; mallocHeapMiB: number } {
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
  let heapKiB = 0
  let inHeap = false
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inHeap = line.endsWith('[heap]')
    else if (inHeap && line.startsWith('Rss:')) heapKiB += Number(line.split(/\s+/)[1])
  }
  return { rssMiB: Math.round(rssKiB / 1024), mallocHeapMiB: Math.round(heapKiB / 1024) }
}

async function main(): Promise<void> {
  const [file, rounds = '5'] = process.argv.slice(2)
  if (!file) throw new Error('usage: bench/serve-memory.ts FILE [ROUNDS]')
  const started = performance.now()
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve'], {
    env: {
      ...process.env,
      RECORDS_FILE: file,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    while (
      !(await fetch(`${BASE}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (child.exitCode !== null) throw new Error(`serve exited with code ${child.exitCode}`)
      await sleep(100)
    }
    const readyMs = Math.round(performance.now() - started)
    await sleep(2_000)
    const afterLoad = memoryOf(child.pid!)
    const statuses: Record<number, number> = {}
    for (let round = 0; round < Number(rounds); round++) {
      for (const query of MIX) {
        const params = new URLSearchParams({
          ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
          po_live: '1',
        })
        if (round > 0 && !('offset' in query)) params.set('offset', String(round * 10))
        const response = await fetch(`${BASE}/api/v1/facts?${params}`)
        await response.arrayBuffer()
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
      }
    }
    await sleep(2_000)
    console.log(
      JSON.stringify({
        file,
        node: process.version,
        readyMs,
        afterLoad,
        afterQueries: memoryOf(child.pid!),
        requests: statuses,
      }),
    )
  } finally {
    child.kill()
  }
}

await main()
