/**
 * What OpenTelemetry traces cost per request, in-process as bench/request-metrics-cost.ts measures
 * the metrics. Each request is what the service's request path does for tracing: Node publishes
 * `http.server.request.start`, the admission its quota decision, the completions their report (with
 * the request metrics), then the response closes. Measured:
 *
 * - without an endpoint: nothing subscribes, so each publication is one `hasSubscribers` check (the
 *   service never even loads the tracing module); the checks alone are timed too;
 * - with one: a span per request, named, given its attributes, ended, batched and exported as
 *   OTLP/JSON to a receiver in this process (which only reads the bodies), the final flush included.
 *
 * CPU nanoseconds per request (this process's user and system time, so the exporter's work counts
 * and waiting for the receiver does not), median of 5 rounds of 20 000 requests, in chunks of 500
 * with a turn of the event loop between them; while traced, a chunk waits for the receiver when more
 * than 1 024 spans are on their way, so that none is dropped (the spans received are counted).
 *
 *   node --import tsx bench/traces-cost.ts
 */
import { channel } from 'node:diagnostics_channel'
import { EventEmitter } from 'node:events'
import { spawn } from 'node:child_process'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { setTimeout as sleep, setImmediate as turn } from 'node:timers/promises'
import { Registry } from 'prom-client'
import type { Config } from '../src/config.js'
import { silentLog } from '../src/core/log.js'
import type { ClientAddresses } from '../src/http/front-door.js'
import { createCompletions, markStarted } from '../src/http/respond.js'
import { quotaDecided, requestCompleted } from '../src/http/trace-channels.js'
import { createRequestMetrics } from '../src/service/request-metrics.js'
import { startTracing } from '../src/service/traces.js'

const N = 20_000
const CHUNK = 500
const ROUNDS = 5
const nodeRequestStart = channel('http.server.request.start')
const server = {} as Server
const completions = createCompletions({
  log: undefined,
  observe: createRequestMetrics(new Registry(), 'bench_').observe,
  clients: {} as ClientAddresses,
  templateOfPath: (path) => (path === '/mcp' ? path : undefined),
})

/** One request as the service's path publishes it, on a new request and response each time. */
function request(i: number): void {
  const req = { method: 'GET', url: '/api/v1/facts', headers: {} } as IncomingMessage
  const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse
  if (nodeRequestStart.hasSubscribers) nodeRequestStart.publish({ request: req, response: res, server })
  markStarted(req)
  if (quotaDecided.hasSubscribers) quotaDecided.publish({ request: req, allowed: i % 50 !== 0 })
  completions.ended(req, res, completions.liveReadRoute('search', req.url!), 'id')
  res.emit('close')
}

/** Requests sent while traced, to hold the exporter's backlog within the batch queue (2 048 spans). */
let sent = 0
const BACKLOG = 1_024

/** CPU time spent in the requests themselves (ms), whatever the exporter does between them. */
let onPath = 0

/** CPU time (user and system, ms) for N requests: the exporter's work counts, waiting for the receiver does not. */
async function round(exportedShare = 0): Promise<number> {
  const started = process.cpuUsage()
  for (let i = 0; i < N; i += CHUNK) {
    const chunkStarted = process.cpuUsage()
    for (let j = i; j < i + CHUNK; j++) request(j)
    const chunkUsed = process.cpuUsage(chunkStarted)
    onPath += (chunkUsed.user + chunkUsed.system) / 1000
    await turn()
    if (exportedShare > 0) {
      sent += CHUNK * exportedShare
      while (sent - received > BACKLOG) await sleep(1)
    }
  }
  const used = process.cpuUsage(started)
  return (used.user + used.system) / 1000
}

async function nsPerRequest(run: () => Promise<number>): Promise<number> {
  const rounds: number[] = []
  for (let r = 0; r < ROUNDS; r++) rounds.push(((await run()) * 1e6) / N)
  return rounds.sort((a, b) => a - b)[ROUNDS >> 1]!
}

// The receiver runs in a process of its own, so that only the exporter's work is counted here: it
// reads what it is sent and says how many spans it has received so far.
let received = 0
const RECEIVER = `
const { createServer } = require('node:http')
let received = 0
const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    for (let at = body.indexOf('"spanId"'); at !== -1; at = body.indexOf('"spanId"', at + 8)) received++
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    process.send({ received })
  })
})
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
`
const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const port = await new Promise<number>((resolve) =>
  receiver.on('message', (m: { port?: number; received?: number }) => {
    if (m.port !== undefined) resolve(m.port)
    if (m.received !== undefined) received = m.received
  }),
)
const url = `http://127.0.0.1:${port}/v1/traces`

const unconfigured = await nsPerRequest(round)

let sink = 0
const checksAlone = await nsPerRequest(async () => {
  const started = performance.now()
  for (let i = 0; i < N; i++)
    sink +=
      (nodeRequestStart.hasSubscribers ? 1 : 0) +
      (quotaDecided.hasSubscribers ? 1 : 0) +
      (requestCompleted.hasSubscribers ? 1 : 0)
  return performance.now() - started
})

/** CPU ns per request traced with `sampler`, and of that the requests' own (the rest is the export). */
async function traced(sampler: NonNullable<Config['traces']>['sampler']) {
  const onPathRounds: number[] = []
  const receivedBefore = received
  sent = received
  const all = await nsPerRequest(async () => {
    onPath = 0
    const started = process.cpuUsage()
    const tracing = startTracing(
      { url, serviceName: 'bench', sampler },
      { version: '0', log: silentLog, quotaStore: () => 'memory' },
    )
    tracing.traceServer(server)
    await round(sampler.ratio)
    onPathRounds.push((onPath * 1e6) / N)
    await tracing.close() // the last batches' export
    const used = process.cpuUsage(started)
    return (used.user + used.system) / 1000
  })
  // The receiver's last counts may still be on their way.
  for (let last = -1; received !== last; await sleep(50)) last = received
  return {
    all: Math.round(all),
    onPath: Math.round(onPathRounds.sort((a, b) => a - b)[ROUNDS >> 1]!),
    received: received - receivedBefore,
  }
}
const everyRequest = await traced({ name: 'parentbased_always_on', ratio: 1 })
const oneInTen = await traced({ name: 'parentbased_traceidratio', ratio: 0.1 })

receiver.disconnect()
console.log(
  JSON.stringify({
    'without an endpoint (metrics and the checks), CPU ns/request': Math.round(unconfigured),
    'of which the three hasSubscribers checks, ns': Number(checksAlone.toFixed(1)),
    'with an endpoint, every request traced, CPU ns/request': everyRequest.all,
    'of which on the request path (span made, named, ended, queued), ns': everyRequest.onPath,
    'spans received / requests': `${everyRequest.received} / ${ROUNDS * N}`,
    'with an endpoint, one trace in ten (parentbased_traceidratio 0.1), CPU ns/request': oneInTen.all,
    'of which on the request path, ns': oneInTen.onPath,
    'spans received at one in ten / requests': `${oneInTen.received} / ${ROUNDS * N}`,
    sink: sink > 0 ? 1 : 0,
  }),
)
