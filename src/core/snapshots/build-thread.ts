/**
 * Starting snapshot build threads (build-worker.ts) from the serving thread: every thread of a build,
 * the one building the snapshot and those reading the source's other parts (load-snapshot.ts).
 */
import { availableParallelism } from 'node:os'
import { Worker, type Transferable } from 'node:worker_threads'

// From the compiled package the worker is a .js file; from the sources (tests, `npm run dev`) a .ts
// file, which the worker loads through tsx's loader (Node 20 does not pass `--import` hooks to workers).
// No execArgv of the parent's: a process started as `node -e …` or with `--input-type` would pass
// flags a worker refuses.
const compiled = import.meta.url.endsWith('.js')

/**
 * A reload's threads run beside the served snapshot, and what they hold is what a reload adds to the
 * process: their young generation is kept to 8 MB (V8's default is 32; more, shorter scavenges). At
 * 100 000 records that takes a reload's peak from 1.49 to 1.41 times the steady memory. A first
 * build holds nothing else, and keeps V8's default.
 */
const BESIDE_SERVED_YOUNG_GENERATION_MB = 8

/**
 * Threads a build may use: every core for the first, all but one for a reload (`beside` the served
 * snapshot: the serving thread keeps a core), at least one.
 */
export function buildThreads(
  { beside = false }: { beside?: boolean } = {},
  cores = availableParallelism(),
): number {
  return Math.max(1, beside ? cores - 1 : cores)
}

/**
 * What a source says of its size before a load (RecordSource.sizeHint): its records, or its bytes.
 * Up to IN_PROCESS_MAX of either, a snapshot is built on the calling thread: a worker's start (the
 * thread, then its modules: 0.3 s on a quiet machine, over a second on a busy one) costs more than
 * the whole build, and the build stalls the serving thread briefly. Measured with
 * bench/build-crossover.ts (docs/scale.md, "Small snapshots"): the sample's 264 records build in
 * process in about a tenth of the time a worker takes.
 */
export type SizeHint = { records?: number; bytes?: number }
export const IN_PROCESS_MAX = { records: 1_000, bytes: 2 * 1024 * 1024 } as const

/** Whether a source of this size is built on the calling thread rather than in workers. */
export function buildsInProcess(size: SizeHint | undefined): boolean {
  if (size?.records !== undefined) return size.records <= IN_PROCESS_MAX.records
  return size?.bytes !== undefined && size.bytes <= IN_PROCESS_MAX.bytes
}

/** First build threads started ahead of time (prestartBuildThreads), until they are taken. */
const prestarted: Worker[] = []

/**
 * Starts `count` threads of a first build now, for the next `startBuildThread(false)` calls to take:
 * they load their modules (the record schema, the index; about a quarter of a second) while the
 * caller loads its own, instead of after. Until taken they keep the process alive no longer than
 * its caller would.
 */
export function prestartBuildThreads(count: number): void {
  while (prestarted.length < count) prestarted.push(newBuildThread(false))
  for (const worker of prestarted) worker.unref()
}

/** Stops the threads started ahead of time that no build took. */
export function releasePrestartedBuildThreads(): void {
  for (const worker of prestarted.splice(0)) void worker.terminate()
}

/** A build thread; `besideServed`: it builds a reload while a snapshot is served. */
export function startBuildThread(besideServed: boolean): Worker {
  const early = besideServed ? undefined : prestarted.shift()
  if (early === undefined) return newBuildThread(besideServed)
  early.ref()
  return early
}

/**
 * A worker thread running the module at `url`: a .js file of the package, or a .ts file of the
 * sources, loaded through tsx as build threads are. For the threads that prepare a snapshot's
 * documents beside its build (the sitemap: src/http/discovery/sitemap-worker.ts).
 */
export function startModuleThread(url: URL): Worker {
  return url.pathname.endsWith('.js')
    ? new Worker(url, { execArgv: [] })
    : new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}) })`,
        { execArgv: [], eval: true },
      )
}

function newBuildThread(besideServed: boolean): Worker {
  const options = {
    execArgv: [],
    ...(besideServed
      ? { resourceLimits: { maxYoungGenerationSizeMb: BESIDE_SERVED_YOUNG_GENERATION_MB } }
      : {}),
  }
  return compiled
    ? new Worker(new URL('./build-worker.js', import.meta.url), options)
    : new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./build-worker.ts', import.meta.url).href)}) })`,
        { ...options, eval: true },
      )
}

/** The first message `worker` sends back for `request` (sent with `transfer`); rejects when it stops without one. */
export function ask<Reply>(
  worker: Worker,
  request: unknown,
  what: string,
  transfer: readonly Transferable[] = [],
): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) =>
      reject(
        new Error(`records: ${what}: the snapshot build stopped before it finished (exit code ${code})`),
      ),
    )
    worker.postMessage(request, transfer)
  })
}

/** Rejects when `worker` fails (an uncaught error, or an exit with a failure code); never resolves. */
export function failureOf(worker: Worker, what: string): Promise<never> {
  return new Promise<never>((_, reject) => {
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (code !== 0)
        reject(new Error(`records: ${what}: a snapshot build thread stopped (exit code ${code})`))
    })
  })
}
