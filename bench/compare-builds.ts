/**
 * Compares builds of the service (and quota configurations) with the reference in alternating passes,
 * each pass running every target once in rotated order: on a machine whose speed moves from one minute
 * to the next, two builds are only comparable measured side by side. `npm run bench` measures one
 * build against the reference and the peer; this answers "is this commit faster than that one".
 *
 * Each ROOT is a checkout with its own `dist/` (and `node_modules/`); `ROOT:ID` picks the server
 * configuration (`off`, `memory`, `redis`; default `off`). The API mix is the bench's.
 *
 * `--node` picks the servers' Node as `npm run bench` does (here `current` by default: the Node running this).
 *
 *   node --import tsx bench/compare-builds.ts --root /tmp/old:memory --root .:memory --passes 7
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { groupCpuSeconds, snapshot } from './lib/cpu.js'
import { planApiMix, resolveMix, sampleCorpus } from './lib/mix.js'
import { toLuaMix } from './lib/mix-file.js'
import { freePort, installCleanupHandlers, onCleanup, stopAll } from './lib/processes.js'
import { resolveServerNode } from './lib/server-node.js'
import { startServer, type Server, type ServerId } from './lib/servers.js'
import { deleteRedisPrefix, uniqueRedisPrefix } from './lib/redis.js'
import { medianPassRatio, rotation } from './lib/stats.js'
import { runWrk } from './lib/wrk.js'

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    passes: { type: 'string', default: '5' },
    duration: { type: 'string', default: '3' },
    node: { type: 'string', default: 'current' },
  },
})
const passes = Math.max(3, Number(values.passes))
const durationS = Math.max(1, Number(values.duration))
const CONNECTIONS = 32
const SERVICE_IDS = new Set(['off', 'memory', 'redis'])

installCleanupHandlers()
const workDir = mkdtempSync(join(tmpdir(), 'compare-builds-'))
const node = resolveServerNode(values.node).path
const redisPrefix = uniqueRedisPrefix()
onCleanup(() => rmSync(workDir, { recursive: true, force: true }))
onCleanup(async () => void (await deleteRedisPrefix(redisPrefix).catch(() => 0)))
const records = resolve('data/records.json')

type Target = { name: string; server: Server; mix: string }
const services: Target[] = []
for (const spec of values.root ?? ['.']) {
  const at = spec.lastIndexOf(':')
  const [root, id] = at === -1 ? [spec, 'off'] : [spec.slice(0, at), spec.slice(at + 1)]
  if (!SERVICE_IDS.has(id))
    throw new Error(`compare-builds: ${spec}: the configuration is off, memory or redis`)
  const port = await freePort()
  const server = await startServer(id as ServerId, {
    root: resolve(root),
    node,
    workDir,
    port,
    records,
    redisPrefix: `${redisPrefix}${port}:`,
  })
  services.push({ name: spec, server, mix: '' })
}
const first = services[0]!.server
const planned = planApiMix(await sampleCorpus(first.url))
for (const [i, target] of services.entries()) {
  target.mix = join(workDir, `mix-${i}.lua`)
  writeFileSync(target.mix, toLuaMix(await resolveMix(target.server.url, planned)))
}
const body = Buffer.from(
  await (await fetch(`${first.url}/api/v1/facts?q=vitesse&limit=10&po_live=1`)).arrayBuffer(),
)
const reference: Target = {
  name: 'reference',
  server: await startServer('reference', {
    root: resolve('.'),
    node,
    workDir,
    port: await freePort(),
    records,
    redisPrefix: '',
    body,
  }),
  mix: services[0]!.mix,
}
const targets = [reference, ...services]
for (const t of targets)
  await runWrk({ url: t.server.url, mixFile: t.mix, durationS: 2, connections: CONNECTIONS })

// Per pass and target: req/s, and CPU µs per request of the server's process group (as the bench counts it).
const measured = new Map(targets.map((t) => [t.name, { rps: [] as number[], cpuPerRequest: [] as number[] }]))
for (let pass = 0; pass < passes; pass++) {
  const line: string[] = []
  for (const t of rotation(targets, pass)) {
    const before = snapshot()
    const run = await runWrk({ url: t.server.url, mixFile: t.mix, durationS, connections: CONNECTIONS })
    const cpuPerRequest = (groupCpuSeconds(before, snapshot(), t.server.pid) * 1e6) / run.requests
    const m = measured.get(t.name)!
    m.rps[pass] = run.rps
    m.cpuPerRequest[pass] = cpuPerRequest
    line.push(`${t.name} ${Math.round(run.rps)} req/s, ${cpuPerRequest.toFixed(1)} µs`)
  }
  console.log(`pass ${pass + 1}: ${line.join(' | ')}`)
}
const ref = measured.get(reference.name)!
for (const [name, m] of measured) {
  const byRps = medianPassRatio(m.rps, ref.rps)!
  const byCpu = medianPassRatio(ref.cpuPerRequest, m.cpuPerRequest)! // less CPU than the reference: above 1
  console.log(`${name.padEnd(40)} ×reference ${byRps.toFixed(2)}   by CPU per request ${byCpu.toFixed(2)}`)
}
await stopAll()
process.exit(0)
