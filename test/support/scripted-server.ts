/**
 * A real HTTP server on 127.0.0.1 that answers a scripted queue of responses, in order, and logs
 * every request as "METHOD /path?query" (after octokit's `__requestLog`). It stands in
 * for a misbehaving records server: 429s, garbage headers, redirects elsewhere, empty pages.
 * When the queue runs dry it answers 599 so a test that sends one request too many fails loudly.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { RecordsClient } from '../../src/client/client.js'
import type { RecordsClientOptions, RetryEvent } from '../../src/client/options.js'

export type ScriptedResponse = {
  status: number
  headers?: Record<string, string>
  /** An object or array is sent as JSON; a string is sent as is. */
  body?: unknown
  /** Milliseconds before answering. */
  delayMs?: number
}
/** A response, or a function of the request (to echo its query, say). */
export type Script = ScriptedResponse | ((req: IncomingMessage) => ScriptedResponse)

export type ScriptedServer = {
  /** Origin of the server, e.g. `http://127.0.0.1:54321`. */
  url: string
  /** Every request received, in order, as `GET /api/v1/facts?po_live=1`. */
  log: string[]
  /** Appends responses to the queue. */
  push(...scripts: Script[]): void
  close(): Promise<void>
}

const EXHAUSTED_STATUS = 599

/** Shorthands for the common answers. */
export const json = (body: unknown, headers: Record<string, string> = {}): ScriptedResponse => ({
  status: 200,
  headers,
  body,
})
export const apiError = (
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedResponse => ({
  status,
  headers,
  body: { error: { code, message } },
})
export const redirect = (location: string, status = 307): ScriptedResponse => ({
  status,
  headers: { location },
})

async function startScriptedServer(...scripts: Script[]): Promise<ScriptedServer> {
  const queue: Script[] = [...scripts]
  const log: string[] = []
  const server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`)
    const script = queue.shift()
    const answer: ScriptedResponse =
      script === undefined
        ? {
            status: EXHAUSTED_STATUS,
            body: {
              error: { code: 'script_exhausted', message: `No scripted response left for ${req.url}` },
            },
          }
        : typeof script === 'function'
          ? script(req)
          : script
    const send = () => {
      const isText = typeof answer.body === 'string' || answer.body === undefined
      const payload =
        answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body)
      const type = isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8'
      res.writeHead(answer.status, { 'content-type': type, ...answer.headers })
      res.end(payload)
    }
    if (answer.delayMs) setTimeout(send, answer.delayMs)
    else send()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    push: (...more) => queue.push(...more),
    // Idempotent, so a test may close early (to get a refused connection) and afterEach close again.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections() // keep-alive sockets from fetch would hold close() open
        server.close((err) => (err ? reject(err) : resolve()))
      })),
  }
}

/** A search envelope, as the records server answers it. */
export const envelope = (results: unknown[], total: number, offset = 0, limit = 50) => ({
  results,
  total,
  limit,
  offset,
})

/** A well-formed record with a distinct id for each `n`, for scripted pages. */
export const fakeFact = (n: number) => ({
  id: `fait-${n.toString(16).padStart(16, '0')}`,
  kind: 'fact',
  title: `Record ${n}`,
  text: `Text ${n}`,
  url: `https://records.example.org/r/${n}`,
  regions: ['France'],
  sources: [],
})

/** A `sleep` that returns at once and remembers each requested wait, in milliseconds. */
function fakeSleep(): { waits: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const waits: number[] = []
  return {
    waits,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted()
      waits.push(ms)
    },
  }
}

/** Starts scripted servers for one test file and closes them after each test. */
export function useScriptedServers(): (...scripts: Script[]) => Promise<ScriptedServer> {
  const servers: ScriptedServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  return async (...scripts) => {
    const server = await startScriptedServer(...scripts)
    servers.push(server)
    return server
  }
}

/** A script-mode client of `server`'s `/api/v1`, with a fake sleep (no real waiting), no jitter, and a retry log. */
export function scriptedClient(server: { url: string }, options: RecordsClientOptions = {}) {
  const clock = fakeSleep()
  const retries: Omit<RetryEvent, 'error'>[] = []
  const client = new RecordsClient({
    baseUrl: `${server.url}/api/v1`,
    mode: 'script',
    sleep: clock.sleep,
    random: () => 0,
    onRetry: ({ error: _error, ...event }) => retries.push(event),
    ...options,
  })
  return { client, waits: clock.waits, retries }
}
