/**
 * Where building a snapshot in a worker thread starts to pay: for records files of growing size,
 * the time until the snapshot is ready built on the serving thread (loadInProcess) and in worker
 * threads (loadInWorker, as a reload builds: beside a served snapshot), and the serving thread's
 * longest stall during each (monitorEventLoopDelay). Below the crossover a worker only adds its
 * start (a thread, its modules); the in-process build must also stall the loop under 50 ms.
 * load-snapshot.ts's IN_PROCESS_MAX_RECORDS is read from this table (docs/scale.md quotes it).
 *
 *   npx tsx bench/build-crossover.ts CORPUS.ndjson [COUNTS, default 264,1000,2000,5000,10000] [ROUNDS, default 5]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { loadInProcess, loadInWorker, type SnapshotLoader } from '../src/core/snapshots/load-snapshot.js'

const [corpus, countsArg = '264,1000,2000,5000,10000', roundsArg = '5'] = process.argv.slice(2)
if (corpus === undefined) throw new Error('usage: bench/build-crossover.ts CORPUS.ndjson [COUNTS] [ROUNDS]')
const lines = readFileSync(corpus, 'utf8').split('\n').filter(Boolean)
const dir = mkdtempSync(join(tmpdir(), 'rr-crossover-'))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function measure(load: SnapshotLoader, file: string, beside: boolean) {
  const source = new FileRecordSource(file)
  const serving = beside ? await loadInProcess(source) : undefined
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const started = performance.now()
  await load(source, { serving })
  const ms = performance.now() - started
  delay.disable()
  return { ms, stallMs: delay.max / 1e6 }
}

try {
  console.log('records  in-process ready / longest stall  worker (reload) ready / longest stall')
  for (const count of countsArg.split(',').map(Number)) {
    const file = join(dir, `${count}.ndjson`)
    writeFileSync(file, lines.slice(0, count).join('\n') + '\n')
    const inProcess = []
    const worker = []
    for (let r = 0; r < Number(roundsArg); r++) {
      inProcess.push(await measure(loadInProcess, file, true))
      worker.push(await measure(loadInWorker, file, true))
    }
    const show = (runs: { ms: number; stallMs: number }[]) =>
      `${median(runs.map((r) => r.ms)).toFixed(0)} ms / ${median(runs.map((r) => r.stallMs)).toFixed(0)} ms`
    console.log(`${String(count).padStart(7)}  ${show(inProcess).padStart(31)}  ${show(worker).padStart(37)}`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
