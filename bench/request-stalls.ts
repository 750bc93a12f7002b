/**
 * How long one request to each endpoint holds the serving thread, on a records file of any size
 * (docs/scale.md, "One request, one bounded cost", quotes it at 1 000 000 records):
 *
 *   npm run corpus:generate -- --count 1000000 --seed 1 --out /tmp/reference-records-corpus/corpus-1000000.ndjson
 *   node --import tsx bench/request-stalls.ts /tmp/reference-records-corpus/corpus-1000000.ndjson
 *
 * Prints a Markdown table (bench/lib/request-stalls.ts says what each column is), the load average,
 * and the largest longest-turn CPU of any first request against the 50 ms aim. With `--json`, the
 * whole run as JSON instead. src/http/request-stalls.scale.test.ts runs the same probes on 100 000
 * generated records.
 */
import { open } from 'node:fs/promises'
import { measureStalls, probes, stallTable } from './lib/request-stalls.js'

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--'))
if (file === undefined) throw new Error('usage: bench/request-stalls.ts FILE.ndjson [--json]')
// The first record's id, for the record endpoints: read from the first line only.
const handle = await open(file)
const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0)
await handle.close()
const first = JSON.parse(buffer.subarray(0, bytesRead).toString().split('\n', 1)[0]!) as { id: string }
const run = await measureStalls(file, probes(first.id))
if (args.includes('--json')) {
  console.log(JSON.stringify(run, null, 2))
} else {
  console.log(`${file}: ready in ${(run.readyMs / 1000).toFixed(1)} s`)
  console.log(
    `load average (1 min): ${run.load.start.toFixed(1)} at the start, ${run.load.end.toFixed(1)} at the end`,
  )
  console.log(stallTable(run))
  const worst = run.stalls.reduce((a, b) => (b.first.turnCpuMs > a.first.turnCpuMs ? b : a))
  const noisiest = Math.max(...run.stalls.map((s) => s.idle.loopDelayMs))
  console.log(
    `longest turn of any first request: ${worst.first.turnCpuMs.toFixed(1)} ms of CPU (${worst.name}), against the 50 ms aim; largest idle loop delay (the noise): ${noisiest.toFixed(0)} ms`,
  )
}
