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

export function startBuildThread(): Worker {
  return compiled
    ? new Worker(new URL('./build-worker.js', import.meta.url), { execArgv: [] })
    : new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./build-worker.ts', import.meta.url).href)}) })`,
        { eval: true, execArgv: [] },
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
