/**
 * How long one request to each endpoint holds the serving thread: the service runs in this
 * process on a records file, and each endpoint is requested once, by curl in a child process (so
 * that reading the answer costs this thread nothing), while `monitorEventLoopDelay` records the
 * longest delay of the event loop. The first request of each path after the snapshot is served is
 * the one measured: it is the one that used to build documents.
 */
import { spawn } from 'node:child_process'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { loadConfig } from '../../src/config.js'
import { startServer } from '../../src/service/service.js'

export type Stall = {
  path: string
  encoding: 'identity' | 'gzip'
  status: number
  bytes: number
  ms: number
  /** The longest event-loop delay during the first request of the path, and during a second one. */
  stallMs: number
  againStallMs: number
}

/** The paths requested: every endpoint a client can reach without a key, with the record `id`. */
const probedPaths = (id: string): { path: string; gzip?: true }[] => [
  { path: '/healthz' },
  { path: '/readyz' },
  { path: '/api/v1/?po_live=1' },
  { path: '/api/v1/facts?q=permis&po_live=1' },
  { path: '/api/v1/facts?q=vitesse%20limitation%20agglomeration%20jeune%20conducteur&match=best&po_live=1' },
  { path: '/api/v1/facts?kind=organization&limit=50&po_live=1' },
  { path: `/api/v1/facts/${id}?po_live=1` },
  { path: '/api/v1/facts.ndjson' },
  { path: '/api/v1/facts.ndjson', gzip: true },
  { path: '/api/v1/changes?since=0&po_live=1' },
  { path: '/api/v1/openapi.json?po_live=1' },
  { path: '/sitemap.xml' },
  { path: '/sitemaps/1.xml' },
  { path: '/catalog.jsonld' },
  { path: '/llms.txt' },
  { path: '/changes.atom' },
  { path: '/' },
  { path: '/recherche?q=permis' },
  { path: `/fiches/${id}` },
  { path: '/docs' },
  { path: '/metrics' },
]

function curl(url: string, gzip: boolean): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download}',
      ...(gzip ? ['-H', 'Accept-Encoding: gzip'] : []),
      url,
    ]
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c))
    child.on('error', reject)
    child.on('exit', () => {
      const [status, bytes] = out.trim().split(' ').map(Number)
      resolve({ status: status!, bytes: bytes! })
    })
  })
}

/** Starts the service on `file` (with a public base URL, so that the sitemap and the feed are served), probes every path once, stops it. */
export async function measureStalls(file: string, id: string): Promise<{ readyMs: number; stalls: Stall[] }> {
  const started = performance.now()
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      RECORDS_FILE: file,
      PUBLIC_BASE_URL: 'https://records.example',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '0',
    }),
  )
  try {
    const readyMs = performance.now() - started
    const stalls: Stall[] = []
    const delay = monitorEventLoopDelay({ resolution: 1 })
    const once = async (path: string, gzip: boolean) => {
      delay.reset()
      delay.enable()
      const begun = performance.now()
      const { status, bytes } = await curl(server.url + path, gzip)
      const ms = performance.now() - begun
      delay.disable()
      return { status, bytes, ms, stallMs: delay.max / 1e6 }
    }
    for (const { path, gzip } of probedPaths(id)) {
      const first = await once(path, gzip === true)
      const again = await once(path, gzip === true)
      stalls.push({ path, encoding: gzip ? 'gzip' : 'identity', ...first, againStallMs: again.stallMs })
    }
    return { readyMs, stalls }
  } finally {
    await server.close()
  }
}
