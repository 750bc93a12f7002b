/**
 * The requests the two request paths are compared over (test/unit/request-paths.test.ts, a quick
 * share of them; request-paths.scale.test.ts, all of them), and the in-memory exchange that hands
 * each to a service: every path and parameter of the served OpenAPI document, each with valid,
 * invalid, repeated and missing values and the live-read variants, in every method, encoding and
 * condition, plus the pages, the discovery documents, the operational endpoints and MCP calls in
 * both eras.
 */
import { afterAll, beforeAll, expect } from 'vitest'
import { mcpCall } from '../../../bench/lib/mcp-mix.js'
import { loadConfig } from '../../../src/config.js'
import { createService, type Service } from '../../../src/service/service.js'
import { loadInProcess } from '../../../src/core/snapshots/load-snapshot.js'
import { exchange as exchangeBytes, requestBytes, type Request as InProcessRequest } from '../in-process.js'

const FIXTURE = new URL('../../fixtures/records.small.json', import.meta.url).pathname
export const RECORD = 'fait-643b555e754f953d'

export type Request = InProcessRequest & { method: string }

/** The bytes `service` answers `request` with, on a connection of its own that the request closes. */
export async function exchange(service: Service, request: Request): Promise<string> {
  const headers = { 'x-request-id': 'diff', ...request.headers }
  return masked(await exchangeBytes(service.app, requestBytes({ ...request, headers })))
}

/** What reads a clock: the Date field, and the seconds of the quota field. */
const masked = (bytes: Buffer) =>
  bytes
    .toString('latin1')
    .replace(/\r\nDate: [^\r]*/gi, '\r\nDate: …')
    .replace(/;t=\d+\r\n/g, ';t=…\r\n')

type Parameter = {
  name: string
  in: string
  schema?: {
    type?: string
    enum?: unknown[]
    minimum?: number
    maximum?: number
    maxLength?: number
    default?: unknown
  }
}
export type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }

/** Values of a query parameter worth comparing: valid ones, each bound and past it, malformed ones. */
function valuesOf(p: Parameter): string[] {
  const s = p.schema ?? {}
  if (s.enum !== undefined) return [...s.enum.map(String), 'nope', '']
  if (s.type === 'integer')
    return [s.minimum, s.maximum, (s.maximum ?? 0) + 1, (s.minimum ?? 0) - 1, 'x', '1.5']
      .filter((v) => v !== undefined)
      .map(String)
  return [
    'vitesse',
    'priorit%C3%A9%20%C3%A0%20droite',
    'trotinette autoroute'.replace(' ', '%20'),
    'zzzzqqq',
    '',
    '%ZZ',
    'x'.repeat((s.maxLength ?? 300) + 1),
  ]
}

const METHODS = ['GET', 'HEAD']
const ENCODINGS: Record<string, string>[] = [
  {},
  { 'accept-encoding': 'br' },
  { 'accept-encoding': 'gzip, deflate, br' },
  { 'accept-encoding': 'identity' },
]

/** Every API request the OpenAPI document implies: each target in every method and encoding, consecutively. */
export function apiRequests(doc: Document): Request[] {
  const targets: string[] = []
  for (const [template, operations] of Object.entries(doc.paths)) {
    const paths = template.includes('{id}')
      ? [RECORD, 'fait-0000000000000000', 'nope', '%66ait-643b555e754f953d'].map((id) =>
          template.replace('{id}', id),
        )
      : [template]
    for (const path of paths) {
      const params = (operations.get?.parameters ?? []).filter(
        (p) => p.in === 'query' && p.name !== 'po_live',
      )
      const queries = ['', 'po_live=1', 'po_live=2', 'po_live=1&po_live=1', 'po_live=1&unknown=1']
      for (const p of params) {
        for (const value of valuesOf(p))
          queries.push(`${p.name}=${value}&po_live=1`, `po_live=1&${p.name}=${value}`)
        queries.push(`${p.name}=${valuesOf(p)[0]}`, `${p.name}=a&${p.name}=b&po_live=1`)
      }
      if (params.length > 1)
        queries.push(params.map((p) => `${p.name}=${valuesOf(p)[0]}`).join('&') + '&po_live=1')
      targets.push(...queries.map((q) => (q === '' ? path : `${path}?${q}`)))
    }
  }
  return targets.flatMap((target) =>
    METHODS.flatMap((method) => ENCODINGS.map((headers) => ({ method, target, headers }))),
  )
}

/** The rest of the site, every method the contract names, and MCP in both eras. */
function otherRequests(): Request[] {
  const paths = [
    '/',
    '/docs',
    '/docs/search',
    '/recherche?q=vitesse',
    '/recherche?q=',
    `/fiches/${RECORD}`,
    '/fiches/nope',
    '/healthz',
    '/readyz',
    '/llms.txt',
    '/server.json',
    '/.well-known/mcp/server-card.json',
    '/sitemap.xml',
    '/sitemaps/1.xml',
    '/catalog.jsonld',
    '/nope',
    '/api/v1/nope',
    '/api/v1/facts.ndjson',
  ]
  const requests: Request[] = paths.flatMap((target) =>
    ['GET', 'HEAD', 'DELETE'].map((method) => ({ method, target })),
  )
  for (const target of ['/api/v1/', '/api/v1/facts', `/api/v1/facts/${RECORD}`, '/mcp', '/']) {
    requests.push({
      method: 'OPTIONS',
      target,
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    })
    requests.push({
      method: 'POST',
      target: `${target}?po_live=1`,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    requests.push({ method: 'PUT', target })
  }
  requests.push({ method: 'GET', target: `/api/v1/facts?q=${'a'.repeat(9000)}` })
  for (const era of ['legacy', 'modern'] as const) {
    for (const args of [{ q: 'vitesse', limit: 3 }, { kind: 'lesson' }, { q: 'vitesse', limit: 51 }])
      requests.push({ method: 'POST', target: '/mcp', ...mcpCall(era, 7, args) })
  }
  requests.push({ method: 'GET', target: '/mcp', headers: { accept: 'text/event-stream' } })
  return requests
}

type BothPaths = { on: Service; off: Service; doc: Document }

/**
 * Starts both services before the file's tests and closes them after; what it returns is filled in
 * once they are started.
 */
export function useBothPaths(): BothPaths {
  const both = {} as BothPaths
  beforeAll(async () => void Object.assign(both, await startBothPaths()))
  afterAll(() => Promise.all([both.on?.close(), both.off?.close()]))
  return both
}

/** Two services that differ only in the fast path being on or off, and the OpenAPI document they serve. */
async function startBothPaths(): Promise<BothPaths> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RECORDS_FILE: FIXTURE,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The page of another site the preflights come from, listed for the DNS-rebinding guard.
    ALLOWED_HOSTS: 'app.example',
  })
  const [on, off] = await Promise.all([
    createService(config, { fastPath: true, load: loadInProcess }),
    createService(config, { fastPath: false, load: loadInProcess }),
  ])
  await Promise.all([on.app.ready(), off.app.ready()])
  const served = await exchange(on, { method: 'GET', target: '/api/v1/openapi.json?po_live=1' })
  await exchange(off, { method: 'GET', target: '/api/v1/openapi.json?po_live=1' }) // both count the same requests
  return { on, off, doc: JSON.parse(served.slice(served.indexOf('\r\n\r\n') + 4)) as Document }
}

/**
 * The generated requests; `quick`: each API target once, in one of its methods and encodings (they
 * rotate from a target to the next), so every path and parameter is still compared, in an eighth
 * of the exchanges.
 */
export function generatedRequests(doc: Document, { quick }: { quick: boolean }): Request[] {
  const api = apiRequests(doc)
  const variants = METHODS.length * ENCODINGS.length
  const kept = quick ? api.filter((_, i) => i % variants === Math.floor(i / variants) % variants) : api
  return [...kept, ...otherRequests()]
}

/** Every request answered with the same bytes by both services, twice (the second time from prepared answers). */
export async function expectPathsAgree(on: Service, off: Service, requests: Request[]): Promise<void> {
  for (const round of [1, 2]) {
    for (const request of requests) {
      const [a, b] = [await exchange(on, request), await exchange(off, request)]
      if (a !== b)
        expect(
          a,
          `${request.method} ${request.target.slice(0, 200)} ${JSON.stringify(request.headers ?? {})} (round ${round})`,
        ).toBe(b)
    }
  }
}
