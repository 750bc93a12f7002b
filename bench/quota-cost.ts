/**
 * What the in-memory quota adds to one request, measured in one process where the machine's load
 * falls on both sides alike: two services that differ only in the quota (off, and a limit no client
 * reaches, as the bench's in-memory row) are handed the same API requests on in-memory connections
 * (src/http/injected-connection.ts, through the front door, the admission and the fast path), in
 * alternating rounds; each round's CPU time (process.cpuUsage) is divided by its requests. Prints the
 * median µs per request of each side and the median of the same-pair differences.
 *
 * On sockets (`npm run bench`), CPU per request moves by tens of µs with the machine's load; here
 * both sides share one process and alternate every few milliseconds, so the difference is the
 * quota's own work.
 *
 *   node --import tsx bench/quota-cost.ts [--rounds 41] [--requests 2000]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config.js'
import { injectConnection } from '../src/http/injected-connection.js'
import { loadInProcess } from '../src/core/snapshots/load-snapshot.js'
import { createService, type Service } from '../src/service/service.js'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '41' }, requests: { type: 'string', default: '2000' } },
})
const ROUNDS = Number(values.rounds)
const PER_ROUND = Number(values.requests)
const RECORDS = new URL('../data/records.json', import.meta.url).pathname

/** The bytes `service` answers with, on an in-memory connection the request closes (the server's own seam). */
function exchange(service: Service, target: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = []
    const fields = Object.entries({ host: 'localhost', connection: 'close', ...headers })
    const connection = injectConnection(service.app.server, {
      bytes: `GET ${target} HTTP/1.1\r\n${fields.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`,
      write(chunk, done) {
        received.push(chunk)
        done()
      },
      end: () => resolve(Buffer.concat(received).toString('latin1')),
    })
    connection.on('error', reject)
  })
}

const start = (perMinute: string) =>
  createService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      RECORDS_FILE: RECORDS,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: perMinute,
    }),
    { load: loadInProcess },
  )
const [off, memory] = await Promise.all([start('0'), start('9999999')])
await Promise.all([off.app.ready(), memory.app.ready()])

// The bench's kinds of request: searches (answered from the cache after the first), record reads,
// 304s and 307s.
const ids = (JSON.parse(readFileSync(RECORDS, 'utf8')) as { records: { id: string }[] }).records
  .filter((_, i) => i % 20 === 0)
  .map((r) => r.id)
const words = ['vitesse', 'alcool', 'permis', 'stationnement', 'priorit%C3%A9', 'ceinture', 'conduite']
type Request = { target: string; headers?: Record<string, string> }
const plain: Request[] = [
  ...words.map((w) => ({ target: `/api/v1/facts?q=${w}&po_live=1` })),
  { target: '/api/v1/facts?kind=fact&limit=20&po_live=1' },
  ...ids.map((id) => ({ target: `/api/v1/facts/${id}?po_live=1` })),
  { target: '/api/v1/facts?q=vitesse' },
  { target: `/api/v1/facts/${ids[1]}` },
]
async function withRevalidations(service: Service): Promise<Request[]> {
  const out = [...plain]
  for (const target of [`/api/v1/facts/${ids[2]}?po_live=1`, '/api/v1/facts?q=alcool&po_live=1']) {
    const tag = /\r\netag: ([^\r]*)/i.exec(await exchange(service, target))?.[1]
    if (tag === undefined) throw new Error(`quota-cost: no ETag for ${target}`)
    out.push({ target, headers: { 'if-none-match': tag } })
  }
  return out
}
const mixes = new Map([
  [off, await withRevalidations(off)],
  [memory, await withRevalidations(memory)],
])

/** CPU µs per request over one round of `service`. */
async function round(service: Service): Promise<number> {
  const mix = mixes.get(service)!
  const before = process.cpuUsage()
  for (let i = 0; i < PER_ROUND; i++) {
    const r = mix[i % mix.length]!
    await exchange(service, r.target, r.headers)
  }
  const used = process.cpuUsage(before)
  return (used.user + used.system) / PER_ROUND
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!
for (const s of [off, memory]) for (let i = 0; i < 3; i++) await round(s) // JIT, caches
const offCosts: number[] = []
const memoryCosts: number[] = []
const differences: number[] = []
for (let r = 0; r < ROUNDS; r++) {
  // Alternating which goes first, so neither always follows a collection of the other's garbage.
  const order = r % 2 === 0 ? [off, memory] : [memory, off]
  const cost = new Map<Service, number>()
  for (const s of order) cost.set(s, await round(s))
  offCosts.push(cost.get(off)!)
  memoryCosts.push(cost.get(memory)!)
  differences.push(cost.get(memory)! - cost.get(off)!)
}
console.log(
  JSON.stringify({
    'quota off, CPU µs/request': Number(median(offCosts).toFixed(2)),
    'in-memory quota, CPU µs/request': Number(median(memoryCosts).toFixed(2)),
    'in-memory minus off, same pair, µs (median)': Number(median(differences).toFixed(2)),
    rounds: ROUNDS,
    'requests per round': PER_ROUND,
  }),
)
await Promise.all([off.close(), memory.close()])
