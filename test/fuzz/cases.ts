/**
 * Generated requests for the fuzz suite: well-formed ones built from the served OpenAPI document
 * (every operation, its parameters with valid and invalid values), and hostile raw-socket variants
 * (request targets, encodings, methods, headers, framing, smuggling, pipelining). Seeded: the same
 * seed gives the same cases, so a failure can be replayed.
 */
import { METHODS } from 'node:http'
import type { Rng } from '../../scripts/corpus/prng.js'

/** One connection's worth of bytes, and what may come back. */
export type FuzzCase = {
  /** Short label of the generator that made it (for the report). */
  kind: string
  /** Bytes sent on one connection, in order. */
  bytes: Buffer
  /** Methods of the requests, in order (HEAD answers have no body). */
  methods: string[]
  /**
   * Requests on the connection that are well-formed: each must get exactly one response. A hostile
   * request may get at most one (or none, when the server closes the connection).
   */
  wellFormed: number
  /** Upper bound of responses: exactly one per request at most. */
  requests: number
  /** Some request of the case is for a page (/recherche, /fiches/…): its errors are HTML pages, not JSON. */
  pages?: boolean
}

type Json = Record<string, any>

const WORDS = [
  'vitesse',
  'priorité',
  'alcool',
  'permis',
  'autoroute',
  'stationnement',
  'feu',
  'rouge',
  'piéton',
  'ceinture',
  'agglomération',
  'dépassement',
  'moto',
  'panneau',
  'conduite',
  'accompagnée',
  'zzzz',
  'à',
  'la',
  'le',
  "l'",
  'qu’',
  'œuvre',
  'R412-6',
  '0,5',
]
const KINDS = ['fact', 'expertise', 'organization', 'offer', 'person', 'article', 'lesson', 'page', 'tool']

/** The operations of the document, as (path template, parameters). */
export function operations(doc: Json): { path: string; params: Json[] }[] {
  const base = new URL(doc.servers[0].url, 'http://x').pathname.replace(/\/$/, '')
  return Object.entries<Json>(doc.paths).map(([template, item]) => ({
    path: base + template,
    params: item.get.parameters as Json[],
  }))
}

const encode = (s: string) => encodeURIComponent(s)

/** A value for a parameter: valid from its schema most of the time, invalid otherwise. */
function value(rng: Rng, param: Json, ids: readonly string[]): string {
  const schema = param.schema ?? {}
  if (rng.chance(0.15))
    return rng.pick([
      '',
      '-1',
      '1e3',
      ' 5',
      '51',
      '10001',
      'x'.repeat(rng.between(1, 400)),
      '%ZZ',
      '%C3',
      '\u0001',
      'null',
      '[]',
      'é'.repeat(301),
    ])
  if (param.name === 'id')
    return rng.chance(0.8)
      ? rng.pick(ids)
      : rng.pick(['fait-0000000000000000', 'page-ffffffffffffffff', 'nope', 'FAIT-643B555E754F953D'])
  if (param.name === 'q') return Array.from({ length: rng.between(1, 5) }, () => rng.pick(WORDS)).join(' ')
  if (param.name === 'kind') return rng.chance(0.9) ? rng.pick(KINDS) : rng.pick(['facts', 'Lesson', 'all'])
  if (param.name === 'region') return rng.chance(0.9) ? 'france' : rng.pick(['France', 'FR', 'europe'])
  if (param.name === 'po_live') return rng.chance(0.95) ? '1' : rng.pick(['0', 'true', '11'])
  if (schema.type === 'integer' || schema.maximum !== undefined)
    return String(rng.between(schema.minimum ?? 0, Math.min(schema.maximum ?? 100, 200)))
  return 'x'
}

/** A request target for an operation, from its parameters. */
function apiTarget(rng: Rng, op: { path: string; params: Json[] }, ids: readonly string[]): string {
  let path = op.path
  const query: string[] = []
  for (const param of op.params) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encode(value(rng, param, ids)))
    else if (param.name === 'po_live' ? rng.chance(0.85) : rng.chance(param.required ? 1 : 0.5)) {
      query.push(`${param.name}=${encode(value(rng, param, ids))}`)
      if (rng.chance(0.03)) query.push(`${param.name}=${encode(value(rng, param, ids))}`) // repeated
    }
  }
  if (rng.chance(0.05)) query.push(`${encode(rng.pick(['kinds', 'page', 'sort', 'q ']))}=1`) // unknown
  if (rng.chance(0.5)) query.reverse()
  return query.length === 0 ? path : `${path}?${query.join('&')}`
}

const request = (method: string, target: string, headers: string[] = [], body = '') =>
  `${method} ${target} HTTP/1.1\r\nHost: records.test\r\n${headers.map((h) => `${h}\r\n`).join('')}${body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body}`

const HEADERS = [
  'Accept: application/json',
  'If-None-Match: "x"',
  'If-None-Match: *',
  'Accept-Encoding: gzip, br',
  'Origin: https://reuser.example',
  'X-Request-Id: fuzz-1',
  'X-Forwarded-For: 6.6.6.6',
  'X-Forwarded-Host: evil.example',
  'Connection: keep-alive',
  'Cookie: a=b',
]

/** Mutations of a well-formed target that keep its meaning (other spellings of the same address). */
function respell(rng: Rng, target: string): string {
  const [path, query] = target.split('?', 2) as [string, string | undefined]
  let p = path
  switch (rng.int(6)) {
    case 0:
      p = p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)
      break
    case 1:
      p = p.replace(/\/([^/]+)$/, '/./$1')
      break
    case 2:
      p = `/zz/..${p}`
      break
    case 3:
      return `${rng.pick(['http', 'https', 'HTTP'])}://${rng.pick(['evil.example', 'x:1', '127.0.0.1:9', 'a.b'])}${target}`
    case 4:
      p = p.replace(/[a-z]/g, (c) => (rng.chance(0.2) ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c))
      break
    default:
      break
  }
  return query === undefined ? p : `${p}?${query}`
}

/** Hostile single requests: each alone on its connection. */
function hostile(rng: Rng, target: string): { kind: string; bytes: Buffer; method: string } {
  const method = rng.pick(['GET', 'HEAD', 'POST'])
  const b = (s: string | Buffer, kind: string, m = method) => ({
    kind,
    bytes: Buffer.isBuffer(s) ? s : Buffer.from(s, 'latin1'),
    method: m,
  })
  switch (rng.int(19)) {
    case 0:
      return b(`GET ${target} HTTP/1.1\r\n\r\n`, 'no-host', 'GET')
    case 1:
      return b(`\r\n\r\nGET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, 'leading-crlf', 'GET')
    case 2:
      return b(request('GET', target, [`Expect: ${rng.pick(['foo', '100-continue', ''])}`]), 'expect', 'GET')
    case 3:
      return b(
        request('POST', target, ['Content-Length: 4', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
        'cl-te',
        'POST',
      )
    case 4:
      return b(
        request('GET', target, ['Transfer-Encoding: chunked']) +
          rng.pick(['zz\r\n', '5\r\nab\r\n', '0\r\n\r\n', 'ffffffffffffffff\r\n']),
        'bad-chunked',
        'GET',
      )
    case 5:
      return b(
        request('GET', target, [`X-Big: ${'b'.repeat(rng.between(8_000, 20_000))}`]),
        'big-header',
        'GET',
      )
    case 6: {
      const m = rng.pick(METHODS)
      return b(`${m} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, 'method', m)
    }
    case 7:
      return b(
        `${rng.pick(['get', 'GeT', 'FOO', 'G ET', 'GET\t'])} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`,
        'bad-method',
        'GET',
      )
    case 8:
      return b(
        Buffer.concat([
          Buffer.from('GET /api/v1/facts?q='),
          Buffer.from(rng.pick(['priorité', 'é', '\u00e9\u0301', 'ü€']), rng.chance(0.7) ? 'utf8' : 'latin1'),
          Buffer.from('&po_live=1 HTTP/1.1\r\nHost: x\r\n\r\n'),
        ]),
        'raw-bytes',
        'GET',
      )
    case 9:
      return b(
        `GET ${target}${'a'.repeat(rng.between(8_000, 30_000))} HTTP/1.1\r\nHost: x\r\n\r\n`,
        'long-target',
        'GET',
      )
    case 10:
      return b(
        `GET ${target} HTTP/${rng.pick(['1.0', '0.9', '2.0', '1.2', '9'])}\r\nHost: x\r\n\r\n`,
        'version',
        'GET',
      )
    case 11:
      return b(`GET ${target} HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n`, 'nul-header', 'GET')
    case 12:
      return b(`GET ${target} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, 'two-hosts', 'GET')
    case 13:
      return b(
        request(
          'POST',
          '/mcp',
          ['Content-Type: application/json', 'Accept: application/json, text/event-stream'],
          rng.pick([
            '{',
            '[]',
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_facts","arguments":{"q":1}}}',
            'x'.repeat(70_000),
          ]),
        ),
        'mcp-bad-body',
        'POST',
      )
    case 14:
      return b(
        `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"jsonrpc"`,
        'truncated-body',
        'POST',
      )
    case 15:
      return b(
        `CONNECT ${rng.pick(['x:443', '/api/v1/', 'evil.example:80'])} HTTP/1.1\r\nHost: x\r\n\r\n`,
        'connect',
        'CONNECT',
      )
    case 16:
      return b(
        `GET ${rng.pick(['*', 'x', '//evil.example/api/v1/', '/%', '/%zz', '/api/v1/facts/%2e%2e/', '/api/v1/facts#frag', '/api/v1/facts?po_live=1#f'])} HTTP/1.1\r\nHost: x\r\n\r\n`,
        'odd-target',
        'GET',
      )
    case 17:
      // A JSON-RPC batch, refused whole before any call runs (issue 32): up to a hundred large searches.
      return b(
        request(
          'POST',
          '/mcp',
          ['Content-Type: application/json', 'Accept: application/json, text/event-stream'],
          JSON.stringify(
            Array.from({ length: rng.between(1, 100) }, (_, id) => ({
              jsonrpc: '2.0',
              id,
              method: 'tools/call',
              params: { name: 'search_facts', arguments: { q: manyWords(rng), limit: 50 } },
            })),
          ),
        ),
        'mcp-batch',
        'POST',
      )
    default:
      return b(request('GET', target, ['Content-Length: 1', 'Content-Length: 2']), 'two-lengths', 'GET')
  }
}

/** A query as long as a query may be (300 characters): the most words one search can be asked to match. */
const manyWords = (rng: Rng) =>
  Array.from({ length: 40 }, () => rng.pick(WORDS))
    .join(' ')
    .slice(0, 300)

/** An MCP call, in either protocol era. */
function mcpCall(rng: Rng): string {
  const args = rng.pick<Json>([
    { q: rng.pick(WORDS) },
    { q: manyWords(rng), limit: 50 },
    { q: rng.pick(WORDS), kind: rng.pick(KINDS), limit: rng.between(1, 50) },
    { limit: 51 },
    { nope: 1 },
    {},
  ])
  const name = rng.pick(['search_facts', 'get_fact', 'get_catalogue', 'nope'])
  const params: Json = {
    name,
    arguments:
      name === 'get_fact' ? { id: rng.pick(['fait-fab1ae2fa3566c3d', 'fait-0000000000000000', 'x']) } : args,
  }
  const modern = rng.chance(0.5)
  if (modern)
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    }
  const method = rng.pick(['tools/call', 'tools/list', 'resources/list', 'ping'])
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: rng.int(1000),
    method,
    params: method === 'tools/call' ? params : modern ? { _meta: params._meta } : {},
  })
  const headers = ['Content-Type: application/json', 'Accept: application/json, text/event-stream']
  if (modern)
    headers.push(
      'Mcp-Protocol-Version: 2026-07-28',
      `Mcp-Method: ${method}`,
      ...(method === 'tools/call' ? [`Mcp-Name: ${name}`] : []),
    )
  return request('POST', '/mcp', headers, body)
}

/** A page for people: a search (over the large records too), a record's page, or a miss. */
function pageTarget(rng: Rng, ids: readonly string[]): string {
  if (rng.chance(0.4))
    return `/fiches/${rng.chance(0.9) ? rng.pick(ids) : rng.pick(['nope', 'fait-0000000000000000'])}`
  const query = [
    `q=${encode(rng.chance(0.2) ? manyWords(rng) : Array.from({ length: rng.between(1, 3) }, () => rng.pick(WORDS)).join(' '))}`,
  ]
  if (rng.chance(0.3)) query.push(`kind=${rng.chance(0.9) ? rng.pick(KINDS) : 'nope'}`)
  if (rng.chance(0.2)) query.push(`page=${rng.between(0, 5)}`)
  return `/recherche?${query.join('&')}`
}

/** The next case: a pipeline of well-formed requests, or one hostile request alone. */
export function nextCase(
  rng: Rng,
  ops: { path: string; params: Json[] }[],
  ids: readonly string[],
): FuzzCase {
  const op = rng.pick(ops)
  const target = apiTarget(rng, op, ids)
  if (rng.chance(0.25)) {
    const h = hostile(rng, rng.chance(0.5) ? target : respell(rng, target))
    // Sometimes behind well-formed requests on the same connection: those must still get exactly
    // their answers, in order, whatever the hostile bytes after them do to the connection.
    if (rng.chance(0.3)) {
      const good = Array.from({ length: rng.between(1, 3) }, () => apiTarget(rng, rng.pick(ops), ids))
      const bytes = Buffer.concat([Buffer.from(good.map((t) => request('GET', t)).join(''), 'utf8'), h.bytes])
      return {
        kind: `after-good:${h.kind}`,
        bytes,
        methods: [...good.map(() => 'GET'), h.method],
        wellFormed: good.length,
        requests: good.length + 1,
      }
    }
    return { kind: h.kind, bytes: h.bytes, methods: [h.method], wellFormed: 0, requests: 1 }
  }
  const count = rng.chance(0.3) ? rng.between(2, 6) : 1
  const parts: string[] = []
  const methods: string[] = []
  let pages = false
  for (let i = 0; i < count; i++) {
    if (rng.chance(0.1)) {
      parts.push(mcpCall(rng))
      methods.push('POST')
      continue
    }
    if (rng.chance(0.1)) {
      parts.push(request('GET', pageTarget(rng, ids)))
      methods.push('GET')
      pages = true
      continue
    }
    const method = rng.chance(0.9) ? 'GET' : rng.pick(['HEAD', 'OPTIONS', 'DELETE', 'PUT', 'PATCH', 'POST'])
    const t = rng.chance(0.2)
      ? respell(rng, apiTarget(rng, rng.pick(ops), ids))
      : apiTarget(rng, rng.pick(ops), ids)
    parts.push(
      request(
        method,
        t,
        Array.from({ length: rng.int(3) }, () => rng.pick(HEADERS)),
      ),
    )
    methods.push(method)
  }
  return {
    kind: count > 1 ? 'pipeline' : pages ? 'page' : 'request',
    bytes: Buffer.from(parts.join(''), 'utf8'),
    methods,
    wellFormed: count,
    requests: count,
    pages,
  }
}
