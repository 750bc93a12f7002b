/**
 * `npm run soak` (issue 10): the mixed load — API searches with distinct queries, listings, record
 * reads, 304 revalidations, 307s and MCP calls — at half the measured maximum, for 10 minutes, with
 * the Redis quota on and Redis restarted in the middle. Prints, every minute: requests, errors, p99
 * and the service's resident memory; ends with whether RSS levelled off.
 *
 * Loopback only, bounded in time; the service runs on CPU 1 and the load (wrk, then h2load) on CPU 0.
 * Options: --minutes N (default 10), --no-build.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ensureTools } from './lib/apt.js'
import { runFixedRate, type FixedRateResult } from './lib/h2load.js'
import { planMcpMix } from './lib/mcp-mix.js'
import { planApiMix, resolveMix, sampleCorpus } from './lib/mix.js'
import { toLuaMix } from './lib/mix-file.js'
import {
  SERVER_CPU,
  freePort,
  installCleanupHandlers,
  run,
  start,
  stopAll,
  waitForHttp,
} from './lib/processes.js'
import { runWrk } from './lib/wrk.js'

const ROOT = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, 'no-build': { type: 'boolean' } },
})
const MINUTES = Number(values.minutes)
const t0 = Date.now()
const log = (line: string) =>
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024

/** A private redis-server that the soak stops and restarts on the same port. */
async function privateRedis(port: number, dir: string) {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ]
  let child = start('redis-server', args, { cpu: '0', output: join(dir, 'redis.log') })
  const up = async () => {
    for (let i = 0; i < 50; i++) {
      if ((await run('redis-cli', ['-p', String(port), 'ping'], '0', 2_000).catch(() => '')).includes('PONG'))
        return
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('soak: redis-server did not start')
  }
  await up()
  return {
    async restart(downMs: number) {
      child.kill('SIGKILL')
      await new Promise((r) => setTimeout(r, downMs))
      child = start('redis-server', args, { cpu: '0', output: join(dir, 'redis.log') })
      await up()
    },
  }
}

/** Distinct searches: two sample words and a varying third, so the answer cache keeps churning. */
function distinctSearches(words: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const q = `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]} ${['a', 'la', 'de', 'route', 'permis', 'conduite', String(i)][i % 7]}`
    return `/api/v1/facts?q=${encodeURIComponent(q)}&limit=${1 + (i % 20)}&po_live=1`
  })
}

async function main(): Promise<void> {
  installCleanupHandlers()
  ensureTools(log)
  if (!values['no-build']) await run('npm', ['run', 'build'], undefined, 120_000)
  const work = mkdtempSync(join(tmpdir(), 'soak-'))
  const redisPort = await freePort()
  const redis = await privateRedis(redisPort, work)
  const port = await freePort()
  const env = {
    ...process.env,
    RECORDS_FILE: join(ROOT, 'data/records.json'),
    LOG_LEVEL: 'warn',
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    RATE_LIMIT_PER_MINUTE: '9999999',
  }
  const service = start(
    'node',
    [join(ROOT, 'dist/cli/main.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
    { cpu: SERVER_CPU, env, output: join(work, 'service.log') },
  )
  const url = `http://127.0.0.1:${port}`
  await waitForHttp(`${url}/readyz`, service, 30_000)

  const sample = await sampleCorpus(url)
  const apiMix = await resolveMix(url, planApiMix(sample))
  const mixFile = join(work, 'mix.lua')
  writeFileSync(mixFile, toLuaMix(apiMix))
  log('measuring the maximum (wrk, 32 connections, 15 s, the API mix)…')
  const max = await runWrk({ url, mixFile, durationS: 15, connections: 32 })
  const total = max.rps / 2
  log(`maximum ${Math.round(max.rps)} req/s → soak at ${Math.round(total)} req/s for ${MINUTES} min`)

  const [mcp] = await resolveMix(url, planMcpMix(sample, 'legacy').slice(0, 1))
  const record = apiMix.find((r) => /\/facts\/[^?]+\?po_live=1$/.test(r.path))!
  const etag = (await fetch(url + record.path)).headers.get('etag')!
  const gets = [
    ...apiMix.filter((r) => r.headers?.['If-None-Match'] === undefined).map((r) => r.path),
    ...distinctSearches(sample.words, 5_000),
  ]
  const streams = [
    { name: 'api', rps: total * 0.85, paths: gets, connections: 24 },
    {
      name: '304',
      rps: total * 0.13,
      paths: [record.path],
      headers: [`If-None-Match: ${etag}`],
      connections: 4,
    },
    {
      name: 'mcp',
      rps: Math.min(total * 0.02, 200),
      paths: ['/mcp'],
      headers: Object.entries(mcp!.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
      body: mcp!.body,
      connections: 4,
    },
  ]

  const rows: {
    minute: number
    requests: number
    errors: number
    p99Ms: number
    rssMiB: number
    note: string
  }[] = []
  for (let minute = 1; minute <= MINUTES; minute++) {
    const middle = minute === Math.ceil(MINUTES / 2)
    const restart = middle
      ? new Promise((r) => setTimeout(r, 20_000)).then(() => redis.restart(5_000))
      : Promise.resolve()
    const results: FixedRateResult[] = await Promise.all(
      streams.map((s) => {
        const dir = join(work, s.name)
        rmSync(dir, { recursive: true, force: true })
        mkdirSync(dir)
        return runFixedRate({
          url,
          paths: s.paths,
          rps: s.rps,
          durationS: 58,
          connections: s.connections,
          headers: s.headers,
          body: s.body,
          workDir: dir,
        })
      }),
    )
    await restart
    const all = results.reduce(
      (a, r) => ({ requests: a.requests + r.requests, errors: a.errors + r.errors }),
      { requests: 0, errors: 0 },
    )
    const row = {
      minute,
      ...all,
      p99Ms: Math.max(...results.map((r) => r.p99Ms)),
      rssMiB: rssMiB(service.pid!),
      note: middle ? 'Redis killed at +20 s, back 5 s later' : '',
    }
    rows.push(row)
    log(
      `minute ${minute}: ${row.requests} requests, ${row.errors} errors, p99 ${row.p99Ms.toFixed(1)} ms (worst stream), RSS ${row.rssMiB.toFixed(0)} MiB ${row.note}`,
    )
  }
  const second = rows.slice(Math.floor(rows.length / 2))
  const growth = second.at(-1)!.rssMiB - second[0]!.rssMiB
  const report = [
    `Soak: ${MINUTES} min at ${Math.round(total)} req/s (half of ${Math.round(max.rps)}), Redis quota on, Redis restarted in minute ${Math.ceil(MINUTES / 2)}`,
    '',
    '| minute | requests | errors | p99 ms (worst stream) | RSS MiB | |',
    '|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.minute} | ${r.requests} | ${r.errors} | ${r.p99Ms.toFixed(1)} | ${r.rssMiB.toFixed(0)} | ${r.note} |`,
    ),
    '',
    `RSS over the second half: ${second[0]!.rssMiB.toFixed(0)} → ${second.at(-1)!.rssMiB.toFixed(0)} MiB (${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MiB)`,
  ].join('\n')
  process.stdout.write(`${report}\n`)
  writeFileSync(join(ROOT, 'bench/results/soak.md'), `${report}\n`)
  await stopAll()
  rmSync(work, { recursive: true, force: true })
  const failed = rows.some((r) => r.errors > 0) || growth > 50
  if (failed) log('soak FAILED: errors, or RSS still growing in the second half (> 50 MiB)')
  process.exitCode = failed ? 1 : 0
}

main().catch(async (err: unknown) => {
  log(String(err instanceof Error ? err.stack : err))
  await stopAll()
  process.exitCode = 1
})
