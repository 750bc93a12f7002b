/**
 * How long a publication takes to reach the replicas, measured as an operator sees it: from the
 * start of `reference-records publish` (the CLI's own start included) to the first response of
 * both replicas showing the edit. Two `serve` processes read one PostgreSQL schema of their own
 * (created and dropped here); each run publishes the records with one record's title changed.
 * It also reports the replicas' first load (from the process start to `/readyz` 200), the CLI's own
 * time, how many loads each replica made per publication (one is right: issue 43 found two), and
 * what the replicas took beyond the CLI's run.
 *
 *   npm run build && npx tsx scripts/publication-freshness.ts [--runs 10] [--file data/records.json]
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { FileRecordSource } from '../src/core/records/file-source.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    file: { type: 'string', default: fileURLToPath(new URL('../data/records.json', import.meta.url)) },
  },
})
const RUNS = Number(values.runs)
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const DATABASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

type Child = { child: ChildProcess; out: () => string; exited: Promise<number | null> }
function run(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c))
  child.stderr!.on('data', (c: Buffer) => (out += c))
  return { child, out: () => out, exited: new Promise((r) => child.on('exit', r)) }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<number> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (await check().catch(() => false)) return performance.now()
    if (performance.now() > deadline) throw new Error(`${what}: not seen in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

const schema = `rr_fresh_${randomBytes(6).toString('hex')}`
const admin = new pg.Client({ connectionString: DATABASE })
await admin.connect()
await admin.query(`CREATE SCHEMA ${schema}`)
const url = new URL(DATABASE)
url.searchParams.set('options', `-c search_path=${schema}`)
const env = { DATABASE_URL: url.href }
const dir = mkdtempSync(join(tmpdir(), 'rr-freshness-'))
const replicas: (Child & { base: string })[] = []
try {
  const records = (await new FileRecordSource(values.file).load()).records
  const target = records[0]!
  const fileWith = (title: string) => {
    const path = join(dir, `records-${randomBytes(4).toString('hex')}.json`)
    writeFileSync(path, JSON.stringify(records.map((r) => (r === target ? { ...r, title } : r))))
    return path
  }
  const publish = async (title: string) => {
    const started = performance.now()
    const cli = run(['publish', fileWith(title), '--keep', '3'], env)
    const code = await cli.exited
    if (code !== 0) throw new Error(`publish exited ${code}:\n${cli.out()}`)
    return { started, cliMs: performance.now() - started }
  }
  await publish(`${target.title} (0)`)

  const firstLoads: number[] = []
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    const started = performance.now()
    const replica = run(['serve'], {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
    })
    const base = `http://127.0.0.1:${port}`
    replicas.push({ ...replica, base })
    const ready = await until(async () => (await fetch(`${base}/readyz`)).ok, `replica ${i} ready`)
    firstLoads.push(ready - started)
  }
  const reloads = () => replicas.map((r) => (r.out().match(/"records reloaded"/g) ?? []).length)
  // The first load's log line may reach this process after /readyz: counted here, not in run 1.
  await until(async () => reloads().every((n) => n >= 1), 'the first loads logged')
  const shows = (base: string, title: string) => async () => {
    const res = await fetch(`${base}/api/v1/facts/${target.id}?po_live=1`)
    return res.ok && ((await res.json()) as { title: string }).title === title
  }

  const rows: { total: number; cli: number; loads: number[] }[] = []
  for (let n = 1; n <= RUNS; n++) {
    const title = `${target.title} (${n})`
    const before = reloads()
    const { started, cliMs } = await publish(title)
    const seen = await Promise.all(replicas.map((r) => until(shows(r.base, title), `run ${n}`)))
    // Settle: a second load of the same publication would show here.
    await new Promise((r) => setTimeout(r, 1_500))
    const after = reloads()
    rows.push({
      total: Math.max(...seen) - started,
      cli: cliMs,
      loads: after.map((a, i) => a - before[i]!),
    })
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`
  console.log(
    `${records.length} records, 2 replicas; first load (start → /readyz): ${firstLoads.map(ms).join(', ')}`,
  )
  // The last column is what the replicas take beyond the CLI's run (they hear of the publication
  // at its commit, a little before the CLI exits).
  console.log('run  publish start → both replicas serve the edit  CLI run  loads per replica  after the CLI')
  rows.forEach((row, i) =>
    console.log(
      `${String(i + 1).padStart(3)}  ${ms(row.total).padStart(44)}  ${ms(row.cli).padStart(7)}  ${row.loads.join(', ').padEnd(17)}  ${ms(row.total - row.cli).padStart(13)}`,
    ),
  )
  const totals = rows.map((r) => r.total).sort((a, b) => a - b)
  console.log(
    `median ${ms(totals[Math.floor(totals.length / 2)]!)}, min ${ms(totals[0]!)}, max ${ms(totals.at(-1)!)}`,
  )
} finally {
  for (const r of replicas) r.child.kill('SIGTERM')
  await Promise.all(replicas.map((r) => r.exited))
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await admin.end()
  rmSync(dir, { recursive: true, force: true })
}
