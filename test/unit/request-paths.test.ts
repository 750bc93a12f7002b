/**
 * The two request paths answer alike, in memory, in the fast tier: two services that differ only in
 * the fast path being on or off are each handed the same raw requests on in-memory connections
 * (`server.emit('connection', duplex)`, Node's documented way to give an HTTP server any stream), and
 * every answer must be the same bytes (Date and the quota's clock masked). The requests are generated:
 * every path and parameter of the served OpenAPI document, each with valid, invalid, repeated and
 * missing values and the live-read variants, in every method, encoding and condition, plus the pages,
 * the discovery documents, the operational endpoints and MCP calls in both eras. A new route or
 * parameter is compared as soon as the OpenAPI document has it. (test/e2e/fast-path.test.ts keeps the
 * same comparison over real sockets, pipelined on one connection.)
 */
import { Duplex } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpCall } from '../../bench/lib/mcp-mix.js'
import { loadConfig } from '../../src/config.js'
import { createService, type Service } from '../../src/service/service.js'
import { loadInProcess } from '../../src/core/snapshots/load-snapshot.js'

const FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname
const RECORD = 'fait-643b555e754f953d'

type Request = { method: string; target: string; headers?: Record<string, string>; body?: string }

/** The bytes `service` answers `request` with, on a connection of its own that the request closes. */
function exchange(service: Service, request: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = []
    const connection = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk)
        done()
      },
      final(done) {
        done()
        resolve(masked(Buffer.concat(received)))
      },
    })
    connection.on('error', reject)
    const headers = {
      host: 'localhost',
      'x-request-id': 'diff',
      connection: 'close',
      ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
      ...request.headers,
    }
    const head = `${request.method} ${request.target} HTTP/1.1\r\n${Object.entries(headers)
      .map(([n, v]) => `${n}: ${v}\r\n`)
      .join('')}\r\n`
    service.app.server.emit('connection', connection)
    connection.push(head + (request.body ?? ''))
  })
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
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }

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

/** Every API request the OpenAPI document implies. */
function apiRequests(doc: Document): Request[] {
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
  const encodings: Record<string, string>[] = [
    {},
    { 'accept-encoding': 'br' },
    { 'accept-encoding': 'gzip, deflate, br' },
    { 'accept-encoding': 'identity' },
  ]
  return targets.flatMap((target) =>
    ['GET', 'HEAD'].flatMap((method) => encodings.map((headers) => ({ method, target, headers }))),
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

let on: Service
let off: Service
let doc: Document

beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RECORDS_FILE: FIXTURE,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The page of another site the preflights come from, listed for the DNS-rebinding guard.
    ALLOWED_HOSTS: 'app.example',
  })
  ;[on, off] = await Promise.all([
    createService(config, { fastPath: true, load: loadInProcess }),
    createService(config, { fastPath: false, load: loadInProcess }),
  ])
  await Promise.all([on.app.ready(), off.app.ready()])
  const served = await exchange(on, { method: 'GET', target: '/api/v1/openapi.json?po_live=1' })
  await exchange(off, { method: 'GET', target: '/api/v1/openapi.json?po_live=1' }) // both count the same requests
  doc = JSON.parse(served.slice(served.indexOf('\r\n\r\n') + 4)) as Document
})
afterAll(() => Promise.all([on?.close(), off?.close()]))

describe('the fast path against the framework, in memory', () => {
  it('generates its API requests from the OpenAPI document: every path and query parameter', () => {
    const requests = apiRequests(doc)
    for (const [template, operations] of Object.entries(doc.paths)) {
      expect(
        requests.some((r) => r.target.startsWith(template.replace('{id}', RECORD))),
        template,
      ).toBe(true)
      for (const p of operations.get?.parameters ?? [])
        if (p.in === 'query')
          expect(
            requests.some((r) => r.target.includes(`${p.name}=`)),
            `${template} ${p.name}`,
          ).toBe(true)
    }
    expect(requests.length).toBeGreaterThan(500)
  })

  it('answers every generated request with the same bytes, twice (the second time from prepared answers)', async () => {
    const requests = [...apiRequests(doc), ...otherRequests()]
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
    // Over a thousand exchanges, about two seconds on an idle machine: room for a loaded one.
  }, 30_000)

  it('answers conditional requests alike: 304 for the tag of the encoding asked, 200 otherwise', async () => {
    for (const target of [
      '/api/v1/?po_live=1',
      `/api/v1/facts/${RECORD}?po_live=1`,
      '/api/v1/facts?q=vitesse&po_live=1',
      '/api/v1/openapi.json?po_live=1',
    ]) {
      for (const encoding of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }] as Record<
        string,
        string
      >[]) {
        const first = await exchange(on, { method: 'GET', target, headers: encoding })
        await exchange(off, { method: 'GET', target, headers: encoding })
        const tag = /\r\netag: ([^\r]*)/i.exec(first)![1]!
        for (const ifNoneMatch of [tag, `W/${tag}`, '"other"', `"x", ${tag}`, '*']) {
          const request = { method: 'GET', target, headers: { ...encoding, 'if-none-match': ifNoneMatch } }
          expect(await exchange(on, request), `${target} ${JSON.stringify(request.headers)}`).toBe(
            await exchange(off, request),
          )
        }
      }
    }
  })
})
