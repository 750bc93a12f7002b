/**
 * Memory of the in-memory quota store with many distinct clients (docs/operations.md quotes it).
 * Run: node --expose-gc --import tsx bench/quota-memory.ts [clients] [requestsPerClient]
 */
import { MemoryRateLimitStore } from '../src/core/quota/memory-store.js'

const clients = Number(process.argv[2] ?? 1_000_000)
const perClient = Number(process.argv[3] ?? 1)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')

const heap = () => {
  gc()
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers // a log's Float64Array lives outside the JS heap
}
const before = heap()
let now = 0
const store = new MemoryRateLimitStore({ now: () => now, sweepIntervalMs: Number.MAX_SAFE_INTEGER })
for (let r = 0; r < perClient; r++) {
  for (let i = 0; i < clients; i++) {
    // distinct IPv4 keys, as clientKey() makes them
    store.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 120)
  }
  now += 10
}
const after = heap()
const bytes = after - before
console.log(
  JSON.stringify({
    clients: store.size,
    requestsPerClient: perClient,
    heapMiB: +(bytes / 2 ** 20).toFixed(1),
    bytesPerClient: Math.round(bytes / clients),
  }),
)
