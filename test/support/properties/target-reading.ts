/**
 * One reading of the request target decides everything (docs/contract.md "Addresses"): for any byte
 * string the HTTP parser accepts as a request target, the route the router chooses and whether the
 * request is counted (under its client's key) come from the same normalised target. Shared by the
 * unit tier (a few hundred generated targets, a quick check) and the scale tier (thousands): the
 * property is one, only the count differs.
 *
 * The targets are built from the pieces that have broken this rule or could: the service's own path
 * segments, each character of them percent-encoded or not (upper or lower hex), dot segments plain
 * and encoded, `#`, `;`, `?`, `&`, `%`, `\`, an encoded `/`, absolute-form prefixes, raw UTF-8, and
 * random printable bytes. Each is sent on an in-memory connection of its own
 * (test/support/in-process.ts), from a client address of its own, so that the `RateLimit`
 * field says exactly whether it was counted, once, under that client's key. The framework answers
 * everything the fast path would (the service is built with it off; test/unit/request-paths.test.ts
 * holds the two to the same bytes), so a hook sees the route each request was given.
 */
import { expect } from 'vitest'
import { createRng, hashSeed, sfc32, type Rng } from '../../../scripts/corpus/prng.js'
import { API_PREFIX } from '../../../src/core/api/schemas.js'
import { isUnderPath } from '../../../src/http/query.js'
import { normaliseTarget } from '../../../src/http/front-door.js'
import { loadConfig } from '../../../src/config.js'
import { loadInProcess } from '../../../src/core/snapshots/load-snapshot.js'
import { createService, type Service } from '../../../src/service/service.js'
import { exchange } from '../in-process.js'

/**
 * The addresses whose requests count (docs/contract.md "Quota" and "Extensions beyond the spec"), as
 * the docs list them, written here apart from the route table (src/http/route-table.ts) they check.
 */
const COUNTED_ROOTS: readonly string[] = [
  API_PREFIX,
  '/recherche',
  '/fiches',
  '/robots.txt',
  '/llms.txt',
  '/server.json',
  '/.well-known/mcp/server-card.json',
  '/sitemap.xml',
  '/sitemaps',
  '/catalog.jsonld',
  '/changes.atom',
  '/mcp',
]
const LIMIT = 1_000_000
const RECORD = 'fait-fab1ae2fa3566c3d'

const SEGMENTS = [
  'api',
  'v1',
  'facts',
  'facts.ndjson',
  'changes',
  'openapi.json',
  RECORD,
  'recherche',
  'fiches',
  'llms.txt',
  'server.json',
  '.well-known',
  'mcp',
  'server-card.json',
  'sitemap.xml',
  'sitemaps',
  '1.xml',
  'catalog.jsonld',
  'changes.atom',
  'healthz',
  'readyz',
  'metrics',
  'docs',
  'reference',
  '',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  'x',
]
const ODD_PIECES = [
  '#',
  ';',
  '?',
  '&',
  '=',
  '%',
  '%23',
  '%3F',
  '%3f',
  '%2F',
  '%25',
  '\\',
  '~',
  '#x',
  ';x',
  'é',
  '%C3%A9',
]
const PREFIXES = ['http://x', 'HTTP://X:80', 'https://records.example.org:8443', 'http://x?', '//', '*']
const QUERIES = ['po_live=1', 'q=vitesse&po_live=1', 'po%5Flive=1', 'q=a#b', '', '?', 'po_live=1#']

/** A character as sent: itself, or percent-encoded in upper or lower hex. */
function spell(rng: Rng, char: string): string {
  if (!rng.chance(0.15)) return char
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0')
  return `%${rng.chance(0.5) ? hex.toUpperCase() : hex}`
}

/** A request target: mostly the service's own paths, spelled every way, with now and then an odd piece. */
function generatedTarget(rng: Rng): string {
  if (rng.chance(0.03)) {
    let random = ''
    for (let i = rng.between(1, 12); i > 0; i--) random += String.fromCharCode(rng.between(0x21, 0x7e))
    return random
  }
  let target = rng.chance(0.08) ? rng.pick(PREFIXES) : ''
  for (let i = rng.between(1, 4); i > 0; i--) {
    target += rng.chance(0.04) ? '%2F' : '/'
    const segment = rng.pick(SEGMENTS)
    target += segment.startsWith('%') ? segment : [...segment].map((c) => spell(rng, c)).join('')
    if (rng.chance(0.12)) target += rng.pick(ODD_PIECES)
  }
  if (rng.chance(0.1)) target += '/'
  if (rng.chance(0.3)) target += `?${rng.pick(QUERIES)}`
  if (rng.chance(0.05)) target += rng.pick(ODD_PIECES)
  return target
}

/** What the front door reads of a target the parser refused only for raw UTF-8 (utf8-target.ts): its bytes encoded. */
const asRead = (target: string) =>
  [...Buffer.from(target, 'utf8')]
    .map((b) => (b >= 0x80 ? `%${b.toString(16).toUpperCase()}` : String.fromCharCode(b)))
    .join('')

/** A route template as a pattern of paths: `:id` is one segment (find-my-way takes an empty one too), `*` anything. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) =>
      part.startsWith(':') ? '[^/]*' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  return new RegExp(`^${source}$`)
}

/** The path as the router compares it to its templates: escapes of other than reserved characters decoded. */
function routerPath(path: string): string {
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

type Answer = { status: number; headers: Record<string, string>; body: string }

function parse(bytes: string): Answer | undefined {
  const end = bytes.indexOf('\r\n\r\n')
  if (end === -1) return undefined
  const [statusLine, ...lines] = bytes.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bytes.slice(end + 4) }
}

/** Sends `head` on an in-memory connection from `address`, and returns the answer once the connection closes. */
const send = async (service: Service, head: Buffer, address: string): Promise<Answer | undefined> =>
  parse((await exchange(service.app, head, { address })).toString('latin1'))

/** The routes the framework gave each request, by request id (filled by the hook `routesSeen` adds). */
export type RoutesSeen = Map<string, string | undefined>

/** Records the route template of every request the framework answers; call before `app.ready()`. */
function routesSeen(service: Service): RoutesSeen {
  const seen: RoutesSeen = new Map()
  service.app.addHook('onResponse', (req, _reply, done) => {
    seen.set(req.id, req.is404 ? undefined : req.routeOptions.url)
    done()
  })
  return seen
}

const FIXTURE = new URL('../../fixtures/records.small.json', import.meta.url).pathname

/**
 * The service this property runs against: the small fixture, a quota no generated target spends,
 * the fast path off (the framework answers all, so `routesSeen` sees every route), ready to answer.
 */
export async function startReadingService(): Promise<{ service: Service; seen: RoutesSeen }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RECORDS_FILE: FIXTURE,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
  })
  const service = await createService(config, { fastPath: false, load: loadInProcess })
  const seen = routesSeen(service)
  await service.app.ready()
  return { service, seen }
}

/**
 * Sends `count` generated targets and expects, for every one the parser accepts: a target holding
 * a `#` is refused with 400 and counted, whatever route the text before it names; any other is
 * routed by its normalised path (the route chosen matches it) and counted exactly when that
 * normalised path lies under a counted address, never twice, and never by a route the count did
 * not read. The service must be built with the fast path off and `routesSeen` hooked.
 */
export async function expectOneReading(service: Service, seen: RoutesSeen, count: number, seed: string) {
  const rng = createRng(sfc32(hashSeed(seed)))
  let accepted = 0
  let fragments = 0
  let counted = 0
  for (let n = 0; n < count; n++) {
    const target = generatedTarget(rng)
    const method = rng.pick(['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'DELETE'])
    const id = `prop-${n}`
    const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
    const head = Buffer.from(
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`,
      'utf8',
    )
    const answer = await send(service, head, address)
    const context = `${method} ${target}`
    expect(answer, context).toBeDefined()
    // The parser refused it (no request was read, so no id): not a target the parser accepts.
    if (answer!.headers['x-request-id'] === undefined) continue
    accepted++
    const read = asRead(target)
    const isCounted = answer!.headers['ratelimit'] !== undefined
    if (isCounted) {
      counted++
      // Counted once, under this client's own key.
      expect(answer!.headers['ratelimit'], context).toMatch(new RegExp(`^"default";r=${LIMIT - 1};t=\\d+$`))
    }
    if (read.includes('#')) {
      fragments++
      expect(answer!.status, context).toBe(400)
      expect(answer!.headers['access-control-allow-origin'], context).toBe('*')
      expect(isCounted, `${context}: a target holding "#" is counted`).toBe(true)
      expect(seen.has(id), `${context}: a target holding "#" reaches no route`).toBe(false)
      continue
    }
    const normal = normaliseTarget(read)
    if (normal === undefined) {
      expect(answer!.status, context).toBe(400)
      expect(seen.has(id), context).toBe(false)
      continue
    }
    const underCounted = COUNTED_ROOTS.some((root) => isUnderPath(normal.path, root))
    const route = seen.get(id)
    if (route !== undefined) {
      // The router read the normalised path: the template it chose matches that path.
      expect(routerPath(normal.path), `${context}: routed to ${route}`).toMatch(templatePattern(route))
      // The route chosen is counted exactly when the count read a counted path: the same reading.
      const routeCounted = COUNTED_ROOTS.some((root) => isUnderPath(route, root))
      expect(routeCounted, `${context}: routed to ${route}, counted path ${underCounted}`).toBe(underCounted)
    }
    // Counted exactly when the normalised path is under a counted address; never a preflight or a 405.
    const expected = underCounted && method !== 'OPTIONS' && answer!.status !== 405
    expect(isCounted, `${context} → ${answer!.status} (normalised ${normal.url})`).toBe(expected)
  }
  // The generator reaches every case: most targets parse, some hold "#", many are counted.
  expect(accepted).toBeGreaterThan(count * 0.6)
  expect(fragments).toBeGreaterThan(count * 0.05)
  expect(counted).toBeGreaterThan(count * 0.2)
}
