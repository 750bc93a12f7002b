/**
 * `npm run bench` (issues 7 and 45): the service's throughput and latency against the contract's
 * floor and the machine's ceiling, in one bounded run on loopback. Starts the service (quota off,
 * in-memory quota, Redis quota, and on the 100k corpus), the replay floor (a bare node:http server
 * sending the service's recorded answers), a bare node:http reference, nginx and a peer baseline, each pinned to CPU 1; drives
 * them with wrk pinned to CPU 0 over a realistic request mix in interleaved passes; measures p99 at a
 * fixed half load with h2load; profiles the configurations that miss a goal; writes
 * bench/results/latest.{json,md} and the generated part of docs/benchmarks.md.
 *
 * Options: --quick (≈ 3 min), --passes N (≥ 3), --duration S, --node current|MAJOR|PATH (the servers'
 * Node; default this one), --profile / --no-profile, --no-build, --no-docs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ensureTools } from './lib/apt.js'
import { ensureCorpus } from './lib/corpus.js'
import { describeMachine, type Machine } from './lib/machine.js'
import { fixedRateRuns, runPasses, warmUp, type Bench } from './lib/measure.js'
import { writeResults, resultsMarkdown, type RunResults } from './lib/output.js'
import {
  MEASUREMENTS,
  PEER_ID,
  REFERENCE_ID,
  parseOptions,
  type Measurement,
  type RunOptions,
} from './lib/plan.js'
import type { MixRequest } from './lib/mix-file.js'
import { prepareMixes, serviceMix, type PreparedMix } from './lib/prepare-mixes.js'
import { profileService, type ProfileResult } from './lib/profile-run.js'
import { recordAnswers } from './lib/record-answers.js'
import {
  freePort,
  installCleanupHandlers,
  isStopping,
  onCleanup,
  run,
  stop,
  stopAll,
} from './lib/processes.js'
import { SUPPORTED_NODE_LINES, nodeSupport, resolveServerNode, type ServerNode } from './lib/server-node.js'
import { deleteRedisPrefix, redisAvailable, uniqueRedisPrefix } from './lib/redis.js'
import { summarise, unmet, type TargetRow } from './lib/report.js'
import {
  ECHO_SERVERS,
  FLOOR_SERVERS,
  startServer,
  type Server,
  type ServerContext,
  type ServerId,
} from './lib/servers.js'

const ROOT = resolve(import.meta.dirname, '..')
const SAMPLE = resolve(ROOT, 'data/records.json')
/** The "typical search response" the reference and nginx answer with (issue 7). */
const REFERENCE_PATH = '/api/v1/facts?q=vitesse&limit=10&po_live=1'

const t0 = Date.now()
const log = (line: string) =>
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

/** Which cases can run here; the others are dropped with a reason. */
async function selectMeasurements(
  redisPrefix: string,
  skipped: string[],
): Promise<{ measurements: Measurement[]; corpus?: string }> {
  let measurements = [...MEASUREMENTS]
  if (await redisAvailable()) {
    onCleanup(async () => {
      log(`deleted ${await deleteRedisPrefix(redisPrefix)} Redis keys under ${redisPrefix}`)
    })
  } else {
    skipped.push('Redis does not answer at 127.0.0.1:6379: the Redis quota case was not run')
    measurements = measurements.filter((m) => m.server !== 'redis')
  }
  const corpus = await ensureCorpus(ROOT, log)
  if ('skipped' in corpus) {
    skipped.push(corpus.skipped)
    log(corpus.skipped)
    return { measurements: measurements.filter((m) => m.server !== 'off-100k') }
  }
  return { measurements, corpus: corpus.file }
}

/** Everything but the floors: the service in its configurations, and the peer. */
async function startServices(
  measurements: readonly Measurement[],
  base: Omit<ServerContext, 'port' | 'records'>,
  corpus?: string,
): Promise<Map<ServerId, Server>> {
  const servers = new Map<ServerId, Server>()
  for (const id of new Set(measurements.map((m) => m.server))) {
    if (FLOOR_SERVERS.has(id)) continue
    log(`starting ${id}`)
    const records = id === 'off-100k' ? corpus! : SAMPLE
    servers.set(id, await startServer(id, { ...base, records, port: await freePort() }))
  }
  return servers
}

/**
 * The floors, once the service's mixes are resolved: the reference and nginx answer with a real
 * search response of the service; the replay with the service's recorded answer to each request of
 * the mixes it is driven with, recorded now, before the passes. Each floor row is driven with the
 * quota-off service's own mix file.
 */
async function startFloors(
  measurements: readonly Measurement[],
  servers: Map<ServerId, Server>,
  mixes: Map<string, PreparedMix>,
  base: Omit<ServerContext, 'port' | 'records'>,
): Promise<Buffer> {
  const off = servers.get('off')!.url
  // Uncompressed, as the mix asks for it (no Accept-Encoding).
  const res = await fetch(off + REFERENCE_PATH, { headers: { 'accept-encoding': 'identity' } })
  if (!res.ok) throw new Error(`bench: ${REFERENCE_PATH} answered ${res.status}`)
  const body = Buffer.from(await res.arrayBuffer())
  const floors = measurements.filter((m) => FLOOR_SERVERS.has(m.server))
  for (const m of floors) mixes.set(m.id, serviceMix(measurements, mixes, m.mix))
  const replayed = floors.filter((m) => m.server === 'replay').flatMap((m) => mixes.get(m.id)!.requests)
  const answers = await recordAnswers(off, replayed)
  log(`recorded ${answers.length} answers of the quota-off service for the replay`)
  const answersFile = join(base.workDir, 'replay-answers.json')
  writeFileSync(answersFile, JSON.stringify(answers))
  for (const id of new Set(floors.map((m) => m.server))) {
    log(`starting ${id}`)
    const ctx = { ...base, records: SAMPLE, port: await freePort(), body, answersFile }
    servers.set(id, await startServer(id, ctx))
  }
  for (const id of ECHO_SERVERS) if (servers.has(id)) await checkEcho(servers.get(id)!.url, body.length)
  if (servers.has('replay')) await checkReplay(servers.get('replay')!.url, replayed)
  return body
}

/** The reference and nginx must answer any mix path with the body: a 403 or 404 would measure nothing. */
async function checkEcho(url: string, bytes: number): Promise<void> {
  const res = await fetch(url + REFERENCE_PATH.replace('vitesse', 'autre'), {
    headers: { 'if-none-match': '"x"' },
  })
  const length = (await res.arrayBuffer()).byteLength
  if (res.status !== 200 || length !== bytes)
    throw new Error(`bench: ${url} answered ${res.status} with ${length} bytes, expected 200 with ${bytes}`)
}

/** The replay must hold an answer for every request it will be sent (a miss is a 500). */
async function checkReplay(url: string, requests: readonly MixRequest[]): Promise<void> {
  for (const [i, a] of (await recordAnswers(url, requests)).entries())
    if (a.status === 500) throw new Error(`bench: the replay has no answer for request ${i} of its mixes`)
}

async function profileUnmet(
  bench: Bench,
  rows: TargetRow[],
  base: Omit<ServerContext, 'port' | 'records'>,
): Promise<ProfileResult[]> {
  const out: ProfileResult[] = []
  // The MCP leg is always profiled, met or not: it is several times slower than the API, say why.
  const ids = [
    ...new Set([
      ...unmet(rows).map((r) => r.id),
      ...rows.filter((r) => r.id === 'mcp-legacy').map((r) => r.id),
    ]),
  ]
  for (const id of ids) {
    log(`profiling ${id}`)
    try {
      out.push(await profileService(bench, id, { ...base, records: SAMPLE }))
    } catch (err) {
      if (isStopping()) throw err
      log(`profile of ${id} failed: ${(err as Error).message}`)
    }
  }
  return out
}

/** Everything between the tools being there and the results being written. */
async function measure(
  options: RunOptions,
  machine: Machine,
  node: ServerNode,
  startedAt: string,
): Promise<RunResults> {
  const workDir = mkdtempSync(join(tmpdir(), 'reference-records-bench-'))
  onCleanup(() => rmSync(workDir, { recursive: true, force: true }))
  const skipped: string[] = []
  const redisPrefix = uniqueRedisPrefix()
  const { measurements, corpus } = await selectMeasurements(redisPrefix, skipped)
  const base = { root: ROOT, node: node.path, workDir, redisPrefix }
  const servers = await startServices(measurements, base, corpus)
  log('building the request mixes')
  const mixes = await prepareMixes(measurements, servers, workDir)
  const body = await startFloors(measurements, servers, mixes, base)
  const bench: Bench = { measurements, servers, mixes, options, workDir, log }
  const rss = await warmUp(bench)
  const measured = await fixedRateRuns(bench, await runPasses(bench))
  for (const t of measured) t.rssMiB = rss.get(measurements.find((m) => m.id === t.id)!.server)
  const rows = summarise(measured, REFERENCE_ID, PEER_ID)
  for (const s of servers.values()) await stop(s.child) // profiles run alone
  const profiles = options.profile ? await profileUnmet(bench, rows, base) : []
  const argv = process.argv.slice(2).join(' ')
  const command = `npm run bench${argv ? ` -- ${argv}` : ''}`
  const mix = mixes.get('off')!.planned
  return {
    date: startedAt,
    command,
    options,
    machine,
    referenceBytes: body.length,
    referenceUrl: REFERENCE_PATH,
    mix,
    rows,
    profiles,
    skipped,
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString()
  const options = parseOptions(process.argv.slice(2))
  installCleanupHandlers()
  ensureTools(log)
  if (options.build) {
    log('npm run build')
    await run('npm', ['run', 'build'], undefined, 300_000).catch((err: Error) =>
      log(`build failed, measuring the existing dist/: ${err.message.slice(0, 300)}`),
    )
  }
  const node = resolveServerNode(options.node)
  log(`servers run on Node ${node.version} (${node.path})`)
  if (nodeSupport(node.version) !== 'supported')
    log(
      `note: Node ${node.version} is ${nodeSupport(node.version)} for this project; the docs quote \`npm run bench -- --node ${SUPPORTED_NODE_LINES.at(-1)}\``,
    )
  const machine = await describeMachine(node.version)
  if (machine.busyBeforeRun > 0.1)
    log(
      `warning: other processes use ${Math.round(machine.busyBeforeRun * 100)} % of the CPU; results will be noisy`,
    )
  const results = await measure(options, machine, node, startedAt)
  const written = writeResults(ROOT, results)
  process.stdout.write(resultsMarkdown(results))
  log(`wrote ${written.join(', ')}`)
}

main()
  .then(() => stopAll())
  .catch(async (err: Error) => {
    log(`failed: ${err.stack ?? err.message}`)
    await stopAll()
    process.exitCode = 1
  })
