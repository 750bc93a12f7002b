/**
 * What one client opening several bulk downloads at once costs everyone else (issue 43: whether to
 * cap concurrent downloads per client; docs/operations.md quotes the result). Runs `serve` on a
 * records file (the quota off), then for each count K in the list: K plain downloads at once (curl,
 * each on its own connection, read as fast as loopback allows), while another client asks
 * `/healthz` every 20 ms; prints the downloads' time and the slowest and median `/healthz` answers,
 * against the same probe with no download running.
 *
 *   npm run build
 *   node --import tsx bench/concurrent-downloads.ts /tmp/reference-records-corpus/corpus-100000.ndjson 1,4,8,16
 */
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const [file, counts = '1,4,8,16'] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: bench/concurrent-downloads.ts FILE.ndjson [K,K,…]')
const PORT = 18_000 + Math.floor(Math.random() * 1000)
const base = `http://127.0.0.1:${PORT}`
const service = spawn(
  process.execPath,
  ['dist/cli/main.js', 'serve', '--port', String(PORT), '--host', '127.0.0.1'],
  {
    env: { ...process.env, RECORDS_FILE: file, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
)

async function ready(): Promise<void> {
  for (;;) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await sleep(200)
  }
}

const download = () =>
  new Promise<number>((resolve) => {
    const started = performance.now()
    const curl = spawn('curl', ['-s', '-o', '/dev/null', `${base}/api/v1/facts.ndjson`], { stdio: 'ignore' })
    curl.on('exit', () => resolve(performance.now() - started))
  })

/** /healthz every 20 ms until `done` settles: each answer's time, in ms. */
async function healthzUntil(done: Promise<unknown>): Promise<number[]> {
  let over = false
  void done.then(() => (over = true))
  const times: number[] = []
  while (!over) {
    const started = performance.now()
    await fetch(`${base}/healthz`).then((r) => r.arrayBuffer())
    times.push(performance.now() - started)
    await sleep(20)
  }
  return times
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return `/healthz median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(0)} ms, slowest ${sorted.at(-1)!.toFixed(0)} ms (${times.length} answers)`
}

try {
  await ready()
  await Promise.all([download(), download()]) // warm-up: the first download's code compiled
  console.log(`load average ${loadavg()[0]!.toFixed(1)}`)
  console.log(`no download: ${summary(await healthzUntil(sleep(5_000)))}`)
  for (const k of counts.split(',').map(Number)) {
    const downloads = Promise.all(Array.from({ length: k }, download))
    const times = await healthzUntil(downloads)
    const took = await downloads
    console.log(
      `${String(k).padStart(2)} at once: downloads ${(Math.max(...took) / 1000).toFixed(1)} s (${(took.reduce((a, b) => a + b, 0) / k / 1000).toFixed(1)} s each on average); ${summary(times)}; load average ${loadavg()[0]!.toFixed(1)}`,
    )
  }
} finally {
  service.kill('SIGTERM')
}
