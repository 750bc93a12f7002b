/**
 * Two configurations of the service profiled side by side under the bench's API mix, to say where
 * the CPU one spends beyond the other goes: each is started with `node --cpu-prof`, warmed up, driven
 * by wrk for the measured seconds, and stopped; then the self time of every function during the
 * measured load is divided by the requests answered meanwhile, and the functions whose cost per
 * request differs most are printed (µs per request, each side and the difference), with the
 * process's whole CPU per request beside them. `--rounds N` starts each configuration N times
 * (alternating), since one process's state can move its cost (docs/benchmarks.md). `replay` as the
 * second names the floor, replaying the first configuration's recorded answers to the same mix.
 *
 *   node --import tsx bench/profile-pair.ts --pair off,memory --duration 6 --node 26 [--rounds 2]
 *   node --import tsx bench/profile-pair.ts --pair off,replay --duration 6 --node 26
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { groupCpuSeconds, snapshot } from './lib/cpu.js'
import { planApiMix, resolveMix, sampleCorpus } from './lib/mix.js'
import { toLuaMix, type MixRequest } from './lib/mix-file.js'
import { freePort, installCleanupHandlers, onCleanup, stop, stopAll } from './lib/processes.js'
import { summariseProfileFile, type ProfileRow } from './lib/profile.js'
import { recordAnswers } from './lib/record-answers.js'
import { deleteRedisPrefix, uniqueRedisPrefix } from './lib/redis.js'
import { resolveServerNode } from './lib/server-node.js'
import { startServer, type ServerId } from './lib/servers.js'
import { runWrk } from './lib/wrk.js'

const { values } = parseArgs({
  options: {
    pair: { type: 'string', default: 'off,memory' },
    duration: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '1' },
    node: { type: 'string', default: 'current' },
    top: { type: 'string', default: '20' },
  },
})
const ids = values.pair.split(',') as ServerId[]
if (ids.length !== 2) throw new Error('profile-pair: --pair takes two configurations, e.g. off,memory')
if (ids[0] === 'replay') throw new Error('profile-pair: name the service first, e.g. off,replay')
const durationS = Number(values.duration)
const CONNECTIONS = 32
const ROOT = resolve(import.meta.dirname, '..')

installCleanupHandlers()
const workDir = mkdtempSync(join(tmpdir(), 'profile-pair-'))
onCleanup(() => rmSync(workDir, { recursive: true, force: true }))
const redisPrefix = uniqueRedisPrefix()
onCleanup(async () => void (await deleteRedisPrefix(redisPrefix).catch(() => 0)))
const node = resolveServerNode(values.node).path

/** The first service's mix and its recorded answers, which the floor (`replay`) sends back. */
let recorded: { mix: MixRequest[]; answersFile: string } | undefined

type Profiled = {
  cpuUsPerRequest: number
  rps: number
  functions: Map<string, number>
  origins: Map<string, number>
}

/** One process of configuration `id`: its CPU per request and each function's self µs per request. */
async function profileOnce(id: ServerId, round: number): Promise<Profiled> {
  const cpuProfDir = join(workDir, `${id}-${round}`)
  mkdirSync(cpuProfDir)
  const startedAt = performance.now()
  const ctx = { root: ROOT, node, workDir, port: await freePort(), records: join(ROOT, 'data/records.json') }
  if (id === 'replay' && recorded === undefined) throw new Error('profile-pair: replay needs a service first')
  const server = await startServer(id, {
    ...ctx,
    redisPrefix,
    cpuProfDir,
    answersFile: recorded?.answersFile,
  })
  const mix = join(workDir, `mix-${id}-${round}.lua`)
  if (id === 'replay') writeFileSync(mix, toLuaMix(recorded!.mix))
  else {
    const requests = await resolveMix(server.url, planApiMix(await sampleCorpus(server.url)))
    writeFileSync(mix, toLuaMix(requests))
    // The floor replays what a service answered to the same mix (bench/targets/replay.ts).
    if (recorded === undefined) {
      const answersFile = join(workDir, 'answers.json')
      writeFileSync(answersFile, JSON.stringify(await recordAnswers(server.url, requests)))
      recorded = { mix: requests, answersFile }
    }
  }
  const load = (s: number) =>
    runWrk({ url: server.url, mixFile: mix, durationS: s, connections: CONNECTIONS })
  await load(3)
  const before = snapshot()
  const fromUs = (performance.now() - startedAt) * 1e3
  const run = await load(durationS)
  const toUs = (performance.now() - startedAt) * 1e3
  const cpuUsPerRequest = (groupCpuSeconds(before, snapshot(), server.pid) * 1e6) / run.requests
  await stop(server.child, 10_000)
  const file = readdirSync(cpuProfDir).find((f) => f.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error(`profile-pair: ${id} wrote no profile`)
  const summary = summariseProfileFile(join(cpuProfDir, file), 100_000, { fromUs, toUs })
  const perRequest = (rows: readonly ProfileRow[]) =>
    new Map(rows.map((r) => [r.name, (r.selfMs * 1e3) / run.requests]))
  console.error(
    `${id} round ${round + 1}: ${Math.round(run.rps)} req/s, ${cpuUsPerRequest.toFixed(1)} µs CPU per request`,
  )
  return {
    cpuUsPerRequest,
    rps: run.rps,
    functions: perRequest(summary.functions),
    origins: perRequest(summary.origins),
  }
}

/** Mean over rounds of each name's µs per request. */
function mean(
  profiles: readonly Profiled[],
  pick: (p: Profiled) => Map<string, number>,
): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of profiles) for (const [k, v] of pick(p)) out.set(k, (out.get(k) ?? 0) + v / profiles.length)
  return out
}

const results = new Map<ServerId, Profiled[]>(ids.map((id) => [id, []]))
for (let round = 0; round < Number(values.rounds); round++)
  for (const id of round % 2 === 0 ? ids : [...ids].reverse())
    results.get(id)!.push(await profileOnce(id, round))

const [a, b] = ids.map((id) => results.get(id)!) as [Profiled[], Profiled[]]
const table = (title: string, pick: (p: Profiled) => Map<string, number>, top: number) => {
  const [ma, mb] = [mean(a, pick), mean(b, pick)]
  const names = [...new Set([...ma.keys(), ...mb.keys()])]
  const diff = (n: string) => (mb.get(n) ?? 0) - (ma.get(n) ?? 0)
  const rows = names.sort((x, y) => Math.abs(diff(y)) - Math.abs(diff(x))).slice(0, top)
  const f = (v: number | undefined) => (v ?? 0).toFixed(2)
  console.log(`\n| ${title} | ${ids[0]} µs/req | ${ids[1]} µs/req | difference |\n|---|---:|---:|---:|`)
  for (const n of rows)
    console.log(
      `| ${n.replace(/\|/g, '\\|')} | ${f(ma.get(n))} | ${f(mb.get(n))} | ${diff(n) >= 0 ? '+' : ''}${f(diff(n))} |`,
    )
}
const avg = (ps: readonly Profiled[], k: 'cpuUsPerRequest' | 'rps') =>
  ps.reduce((s, p) => s + p[k], 0) / ps.length
console.log(
  `CPU per request (whole process): ${ids[0]} ${avg(a, 'cpuUsPerRequest').toFixed(1)} µs at ${Math.round(avg(a, 'rps'))} req/s, ` +
    `${ids[1]} ${avg(b, 'cpuUsPerRequest').toFixed(1)} µs at ${Math.round(avg(b, 'rps'))} req/s (mean of ${a.length} process(es) each)`,
)
table('origin (self time)', (p) => p.origins, 12)
table('function (self time)', (p) => p.functions, Number(values.top))
await stopAll()
process.exit(0)
