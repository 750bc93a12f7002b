/**
 * Prints the project modules (files under src/) that one request runs, by V8's precise coverage
 * (node:inspector, Profiler.takePreciseCoverage): the service is started on the small fixture, each
 * request is sent a few times to warm up, then measured in several windows: the counters are reset,
 * the request is sent once more, and the src/ files with a function that ran are read. A file is the
 * request's when it ran in every window: a timer (the quota's sweep, a metric) that fires during one
 * window, as it does on a loaded machine where a window lasts longer, is not the request's path
 * (issue 45, item 2: a short path in front of the framework). A count, not a timing.
 *
 *     npx tsx scripts/request-modules.ts            # both requests, with their modules
 *     npx tsx scripts/request-modules.ts --json     # {"redirect": n, "cachedSearch": n}
 */
import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/config.js'
import { loadInProcess } from '../src/core/snapshots/load-snapshot.js'
import { createService } from '../src/service/service.js'

const FIXTURE = fileURLToPath(new URL('../test/fixtures/records.small.json', import.meta.url))
const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const WARM_UP = 20
/** Windows each request is measured in; its modules are those of every window. */
const WINDOWS = 5

/** The requests measured: a 307 to the live read, and a search the cache answers. */
const REQUESTS = {
  redirect: '/api/v1/facts?q=vitesse',
  cachedSearch: '/api/v1/facts?q=vitesse&po_live=1',
} as const

export async function requestModules(): Promise<Record<keyof typeof REQUESTS, string[]>> {
  const service = await createService(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RECORDS_FILE: FIXTURE, LOG_LEVEL: 'silent' }),
    { load: loadInProcess },
  )
  const session = new Session()
  session.connect()
  try {
    const base = await service.listen()
    // The warm-up's background searches would be counted as the request's (a loaded run counted 30).
    await service.warmedUp
    await session.post('Profiler.enable')
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
    const result = {} as Record<keyof typeof REQUESTS, string[]>
    for (const [name, target] of Object.entries(REQUESTS) as [keyof typeof REQUESTS, string][]) {
      const once = async () => {
        const res = await fetch(`${base}${target}`, { redirect: 'manual' })
        await res.arrayBuffer()
      }
      for (let i = 0; i < WARM_UP; i++) await once()
      const window = async () => {
        await session.post('Profiler.takePreciseCoverage') // resets the counters
        await once()
        const { result: scripts } = await session.post('Profiler.takePreciseCoverage')
        return scripts
          .filter((s) => s.url.includes(SRC) || s.url.startsWith(`file://${SRC}`))
          .filter((s) => s.functions.some((f) => f.ranges[0]!.count > 0))
          .map((s) => fileURLToPath(s.url).slice(SRC.length))
      }
      let files = new Set(await window())
      for (let w = 1; w < WINDOWS; w++) {
        const seen = new Set(await window())
        files = new Set([...files].filter((file) => seen.has(file)))
      }
      result[name] = [...files].sort()
    }
    await session.post('Profiler.stopPreciseCoverage')
    return result
  } finally {
    session.disconnect()
    await service.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const modules = await requestModules()
  if (process.argv.includes('--json'))
    console.log(JSON.stringify(Object.fromEntries(Object.entries(modules).map(([k, v]) => [k, v.length]))))
  else
    for (const [name, files] of Object.entries(modules))
      console.log(
        `${name} (${REQUESTS[name as keyof typeof REQUESTS]}): ${files.length} modules\n  ${files.join('\n  ')}`,
      )
}
