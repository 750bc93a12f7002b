/**
 * Configurations of the service (and the floor, the replay of the quota-off service's recorded
 * answers) compared by instructions executed per request, which the machine's load does not move
 * (valgrind's callgrind counts them; a shared, busy machine moves CPU time per request by tens of
 * µs). Each configuration's server runs under
 * `valgrind --tool=callgrind --instr-atstart=no` with `--perf-basic-prof`; the bench's API mix is
 * sent on keep-alive connections, first uncounted (warm-up: V8 tiers the hot code up), then counted
 * (`callgrind_control -i on` … `-i off`) for a fixed number of requests. Prints instructions per
 * request of each, and the functions (JIT-compiled JavaScript named from V8's perf map, Node's and
 * V8's own code from the binary's symbols) whose instructions per request differ most from the
 * first configuration's. The services run first; the replay answers what the first of them
 * answered (record it from `off`, as the bench does).
 *
 *   node --import tsx bench/instructions-pair.ts --pair off,memory[,replay] [--node 26]
 *     [--requests 4000] [--warmup 6000] [--connections 8] [--top 25] [--keep DIR]
 *
 * Slow: 1–3 minutes per configuration (valgrind runs the server about 50 times slower).
 */
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { planApiMix, resolveMix, sampleCorpus } from './lib/mix.js'
import type { MixRequest } from './lib/mix-file.js'
import { parsePerfMap, summarise, type Counted } from './lib/callgrind.js'
import { recordAnswers } from './lib/record-answers.js'
import {
  freePort,
  installCleanupHandlers,
  onCleanup,
  start,
  stop,
  stopAll,
  waitForHttp,
} from './lib/processes.js'
import { resolveServerNode } from './lib/server-node.js'

const { values } = parseArgs({
  options: {
    pair: { type: 'string', default: 'off,memory' },
    node: { type: 'string', default: 'current' },
    requests: { type: 'string', default: '4000' },
    warmup: { type: 'string', default: '6000' },
    connections: { type: 'string', default: '8' },
    top: { type: 'string', default: '25' },
    keep: { type: 'string' },
    read: { type: 'string' },
  },
})
const QUOTAS: Record<string, string> = { off: '0', memory: '9999999' }
// --read DIR/off,OTHER/off: compares files kept by earlier runs (--keep) instead of running anything.
const kept = values.read?.split(',')
const ids = kept ?? values.pair.split(',')
if (
  kept !== undefined
    ? kept.length < 2
    : ids.length < 2 || ids.some((id) => QUOTAS[id] === undefined && id !== 'replay') || ids[0] === 'replay'
)
  throw new Error('instructions-pair: --pair lists off, memory or replay, a service first (e.g. off,memory)')
const ROOT = resolve(import.meta.dirname, '..')
const node = resolveServerNode(values.node).path

installCleanupHandlers()
const workDir = values.keep ?? mkdtempSync(join(tmpdir(), 'instructions-pair-'))
mkdirSync(workDir, { recursive: true })
if (values.keep === undefined) onCleanup(() => rmSync(workDir, { recursive: true, force: true }))

/** Sends `count` requests of `mix`, in order, `connections` at a time on keep-alive connections. */
async function drive(url: string, mix: readonly MixRequest[], count: number, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  let next = 0
  const one = (r: MixRequest) =>
    new Promise<void>((done, fail) => {
      const req = request(url + r.path, { method: r.method, headers: r.headers, agent }, (res) => {
        res.on('data', () => {})
        res.on('end', done)
        res.on('error', fail)
      })
      req.on('error', fail)
      req.end(r.body)
    })
  // A keep-alive connection the server closed as it was reused (valgrind slows its timers) resets:
  // the request is sent again on a fresh one, and the resets are reported.
  let resets = 0
  const worker = async () => {
    while (next < count) {
      const r = mix[next++ % mix.length]!
      for (let attempt = 0; ; attempt++) {
        try {
          await one(r)
          break
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt === 3) throw err
          resets++
        }
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  agent.destroy()
  if (resets > 0) console.error(`instructions-pair: ${resets} connection resets, requests sent again`)
}

function control(pid: number, ...args: string[]) {
  const r = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`callgrind_control ${args.join(' ')}: ${r.stderr || r.stdout}`)
}

/** The mix as the first service answered it, and its answers for the replay. */
let recorded: { mix: MixRequest[]; answersFile: string } | undefined

async function countOnce(id: string): Promise<Counted> {
  const port = await freePort()
  const out = join(workDir, `${id}.callgrind`)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RECORDS_FILE: join(ROOT, 'data/records.json'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: QUOTAS[id] ?? '0',
  }
  for (const k of ['REDIS_URL', 'TRUST_PROXY', 'PUBLIC_BASE_URL', 'NODE_OPTIONS']) delete env[k]
  const server =
    id === 'replay'
      ? [
          '--import',
          'tsx',
          join(ROOT, 'bench/targets/replay.ts'),
          '--port',
          String(port),
          '--answers-file',
          recorded!.answersFile,
        ]
      : [join(ROOT, 'dist/cli/main.js'), 'serve', '--port', String(port), '--host', '127.0.0.1']
  const child = start(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--smc-check=all-non-file', // V8 writes the code it runs
      `--callgrind-out-file=${out}`,
      node,
      '--perf-basic-prof',
      ...server,
    ],
    { env, cwd: ROOT, output: join(workDir, `${id}.log`) },
  )
  const url = `http://127.0.0.1:${port}`
  await waitForHttp(`${url}${id === 'replay' ? '/' : '/readyz'}`, child, 300_000)
  if (recorded === undefined) {
    const mix = await resolveMix(url, planApiMix(await sampleCorpus(url)))
    const answersFile = join(workDir, 'answers.json')
    writeFileSync(answersFile, JSON.stringify(await recordAnswers(url, mix)))
    recorded = { mix, answersFile }
  }
  const mix = recorded.mix
  const connections = Number(values.connections)
  await drive(url, mix, Number(values.warmup), connections)
  const requests = Number(values.requests)
  control(child.pid!, '-i', 'on')
  await drive(url, mix, requests, connections)
  control(child.pid!, '-i', 'off')
  await stop(child, 120_000)
  const perfMap = `/tmp/perf-${child.pid}.map`
  const symbols = existsSync(perfMap) ? parsePerfMap(readFileSync(perfMap, 'utf8')) : []
  const counted = summarise(readFileSync(out, 'utf8'), symbols, requests)
  if (values.keep !== undefined && existsSync(perfMap)) {
    copyFileSync(perfMap, join(workDir, `${id}.perf.map`))
    writeFileSync(join(workDir, `${id}.json`), JSON.stringify({ requests }))
  }
  rmSync(perfMap, { force: true })
  console.error(`${id}: ${Math.round(counted.instructionsPerRequest)} instructions per request`)
  return counted
}

/** The files `--keep` left for `prefix` (DIR/off): the count, V8's map, and how many requests were counted. */
const summariseKept = (prefix: string) =>
  summarise(
    readFileSync(`${prefix}.callgrind`, 'utf8'),
    parsePerfMap(readFileSync(`${prefix}.perf.map`, 'utf8')),
    (JSON.parse(readFileSync(`${prefix}.json`, 'utf8')) as { requests: number }).requests,
  )

const counted: Counted[] = []
for (const id of ids) counted.push(kept === undefined ? await countOnce(id) : summariseKept(id))
const f = (v: number | undefined) => Math.round(v ?? 0).toLocaleString('en')
const table = (title: string, pick: (c: Counted) => Map<string, number>, top: number) => {
  const maps = counted.map(pick)
  const diff = (n: string, i: number) => (maps[i]!.get(n) ?? 0) - (maps[0]!.get(n) ?? 0)
  const widest = (n: string) => Math.max(...maps.map((_, i) => Math.abs(diff(n, i))))
  const rows = [...new Set(maps.flatMap((m) => [...m.keys()]))]
    .sort((x, y) => widest(y) - widest(x))
    .slice(0, top)
  const others = ids.slice(1)
  console.log(
    `\n| ${title} | ${ids.map((id) => `${id} Ir/req`).join(' | ')} | ${others.map((id) => `${id} − ${ids[0]}`).join(' | ')} |\n` +
      `|---|${ids.map(() => '---:|').join('')}${others.map(() => '---:|').join('')}`,
  )
  for (const n of rows) {
    const d = others.map((_, i) => `${diff(n, i + 1) >= 0 ? '+' : ''}${f(diff(n, i + 1))}`)
    console.log(
      `| ${n.replace(/\|/g, '\\|')} | ${maps.map((m) => f(m.get(n))).join(' | ')} | ${d.join(' | ')} |`,
    )
  }
}
console.log(
  (kept === undefined
    ? `Instructions per request (${values.requests} counted after ${values.warmup} uncounted, ${values.connections} connections): `
    : 'Instructions per request (files kept by earlier runs): ') +
    ids.map((id, i) => `${id} ${f(counted[i]!.instructionsPerRequest)}`).join(', ') +
    // The optimising compilers' work is a warm-up still under way, and the full collections are
    // stretched by valgrind's slowness (originOf): neither is a cost of each request in a native run.
    '; without the V8 compilers and full collections: ' +
    ids
      .map((id, i) => {
        const o = counted[i]!.origins
        const steady =
          counted[i]!.instructionsPerRequest -
          (o.get('V8 compilers (C++)') ?? 0) -
          (o.get('V8 full collections (C++)') ?? 0)
        return `${id} ${f(steady)}`
      })
      .join(', '),
)
table('origin (self)', (c) => c.origins, 12)
table('function (self)', (c) => c.functions, Number(values.top))
if (values.keep !== undefined)
  console.error(`callgrind files kept in ${workDir}: ${readdirSync(workDir).join(', ')}`)
await stopAll()
process.exit(0)
