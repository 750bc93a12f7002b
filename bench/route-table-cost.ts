/**
 * What the route table costs per request: `lookup` of the paths a mix holds (a fixed address, a
 * record, an unknown path under the API), in nanoseconds, the median of several rounds.
 *
 *     npx tsx bench/route-table-cost.ts
 */
import { routeTable } from '../src/http/route-table.js'

const N = 1_000_000
const ROUNDS = 7
const PATHS = ['/api/v1/facts', '/api/v1/facts/fait-fab1ae2fa3566c3d', '/api/v1/unknown', '/mcp']
const table = routeTable({
  mounts: [
    {
      path: '/mcp',
      methods: ['POST'],
      counted: true,
      readsRecords: true,
      cors: { requestHeaders: [], responseHeaders: [] },
      answer: async () => ({ reply: { status: 204, headers: {}, body: '' } }) as never,
      errorBody: async () => ({}),
    },
  ],
})

let sink = 0
const rounds: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const started = process.hrtime.bigint()
  for (let i = 0; i < N; i++) sink += table.lookup(PATHS[i % PATHS.length]!).counted ? 1 : 0
  rounds.push(Number(process.hrtime.bigint() - started) / N)
}
console.log(
  `route table lookup: ${rounds.sort((a, b) => a - b)[ROUNDS >> 1]!.toFixed(1)} ns per request (${sink > 0 ? 'ok' : ''})`,
)
