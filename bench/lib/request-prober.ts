/**
 * The client side of bench/lib/request-stalls.ts, in a process of its own: started (forked) before
 * the service loads its records, so that neither starting it nor reading an answer costs the
 * serving thread anything. It waits for a message over IPC, sends that one request (or waits, for an
 * idle window), reads the whole answer without keeping it, and replies with what it got.
 */
import { request } from 'node:http'
import { performance } from 'node:perf_hooks'

export type ProbeOrder =
  | { kind: 'request'; url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }
  | { kind: 'idle'; ms: number }

export type ProbeAnswer = { status: number; bytes: number; ms: number; error?: string }

/** Past this a request is reported as failed (status 0), so that one hung answer does not hang the run. */
const REQUEST_TIMEOUT_MS = 300_000

function probe(order: Extract<ProbeOrder, { kind: 'request' }>): Promise<ProbeAnswer> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(order.url, { method: order.method, headers: order.headers, agent: false }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started }))
      res.on('error', (err) =>
        resolve({ status: 0, bytes, ms: performance.now() - started, error: err.message }),
      )
    })
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)))
    req.on('error', (err) =>
      resolve({ status: 0, bytes: 0, ms: performance.now() - started, error: err.message }),
    )
    req.end(order.body)
  })
}

process.on('message', (order: ProbeOrder) => {
  const answered =
    order.kind === 'idle'
      ? new Promise<ProbeAnswer>((resolve) =>
          setTimeout(() => resolve({ status: 0, bytes: 0, ms: order.ms }), order.ms),
        )
      : probe(order)
  void answered.then((answer) => process.send!(answer))
})
// Told the parent it may start: the module is loaded and listening for orders.
process.send!({ ready: true })
