/**
 * The longest event-loop delay that one request to each endpoint causes, on a records file of any
 * size (docs/scale.md, "One request, one bounded cost", quotes it at 1 000 000 records):
 *
 *   npm run corpus:generate -- --count 1000000 --seed 1 --out /tmp/reference-records-corpus/corpus-1000000.ndjson
 *   node --import tsx bench/request-stalls.ts /tmp/reference-records-corpus/corpus-1000000.ndjson
 *
 * Prints one line per request, then the largest delay. src/http/request-stalls.scale.test.ts runs
 * the same probe on 100 000 generated records.
 */
import { open } from 'node:fs/promises'
import { measureStalls } from './lib/request-stalls.js'

const file = process.argv[2]
if (file === undefined) throw new Error('usage: bench/request-stalls.ts FILE.ndjson')
// The first record's id, for the record endpoints: read from the first line only.
const handle = await open(file)
const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0)
await handle.close()
const first = JSON.parse(buffer.subarray(0, bytesRead).toString().split('\n', 1)[0]!) as { id: string }
const { readyMs, stalls } = await measureStalls(file, first.id)
console.log(
  `ready in ${(readyMs / 1000).toFixed(1)} s; longest event-loop delay of the first request of each path, then of a second one:`,
)
for (const s of stalls)
  console.log(
    `${s.stallMs.toFixed(1).padStart(8)} ms ${s.againStallMs.toFixed(1).padStart(7)} ms  ${s.status}  ${(s.ms / 1000).toFixed(2).padStart(6)} s  ${String(s.bytes).padStart(11)} B  ${s.encoding === 'gzip' ? 'gzip ' : ''}${s.path}`,
  )
const worst = stalls.reduce((a, b) => (b.stallMs > a.stallMs ? b : a))
console.log(
  `largest: ${worst.stallMs.toFixed(1)} ms (${worst.path}${worst.encoding === 'gzip' ? ', gzip' : ''})`,
)
