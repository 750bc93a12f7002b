/**
 * Starting a snapshot build thread (build-worker.ts), from the serving thread or from a build
 * thread that shares its source with others.
 */
import { Worker } from 'node:worker_threads'

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

/** A first build's thread started ahead of time (prestartBuildThread), until it is taken. */
let prestarted: Worker | undefined

/**
 * Starts the thread of a first build now, for the next `startBuildThread(false)` to take: it loads
 * its modules (the record schema, the index; about a quarter of a second) while the caller loads its
 * own, instead of after. Until taken it keeps the process alive no longer than its caller would.
 */
export function prestartBuildThread(): void {
  if (prestarted !== undefined) return
  prestarted = newBuildThread(false)
  prestarted.unref()
}

/** A build thread; `besideServed`: it builds a reload while a snapshot is served. */
export function startBuildThread(besideServed: boolean): Worker {
  const early = besideServed ? undefined : prestarted
  if (early === undefined) return newBuildThread(besideServed)
  prestarted = undefined
  early.ref()
  return early
}

function newBuildThread(besideServed: boolean): Worker {
  const options = { execArgv: [], ...(besideServed ? { resourceLimits: { maxYoungGenerationSizeMb: BESIDE_SERVED_YOUNG_GENERATION_MB } } : {}) }
  return compiled
    ? new Worker(new URL('./build-worker.js', import.meta.url), options)
    : new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./build-worker.ts', import.meta.url).href)}) })`,
        { ...options, eval: true },
      )
}

/** The first message `worker` sends back for `request`; rejects when it stops without one. */
export function ask<Reply>(worker: Worker, request: unknown, what: string): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`records: ${what}: the snapshot build stopped before it finished (exit code ${code})`)))
    worker.postMessage(request)
  })
}
