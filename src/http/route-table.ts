/**
 * The route table: every address the service answers, in one list — its methods, whether its
 * requests count in the quota, its CORS and security fields, whether it takes the live-read
 * redirect (po_live), and what answers it (a framework route's handler, or a mount such as MCP).
 * Everything else is derived from it: the admission (counting, the 405 with its `Allow`, the
 * redirect, a mount's 503 before the first snapshot), the CORS fields of every answer, the fast
 * path's and the mount entry's choice, the route label of the metrics, and the check at start that
 * the framework's routes are exactly the table's (app.ts). Adding an endpoint is one entry here plus
 * its handler.
 *
 * One matching rule, the router's: an address is matched exactly, a `:param` is one segment (an
 * empty one too, as find-my-way reads it), a `*` the rest of the path. A path no address matches
 * takes the counting and the CORS of the deepest address it lies under (`/api/v1/nope` is counted,
 * `/docs/x` carries the pages' policy), except that a mount answers only its own address: beneath
 * it (`/mcp/x`) is an unknown path of the site, counted as under the mount, with the API's CORS
 * and the site's 404 (docs/design.md "The route table"). The site's 404 outside the API is a page
 * for a browser that prefers one, and the table says its fields too: the CORS of the path, with the
 * pages' Content-Security-Policy (a JSON answer's policy would block the page's stylesheet).
 */
import { API_PREFIX } from '../core/api/schemas.js'
import { CHANGES_PATH } from '../core/api/changes.js'
import { DISCOVERY_PATHS } from '../core/api/catalogue.js'
import { prepareCors, type CorsPolicy, type PreparedCors } from './cors.js'
import { ROBOTS_PATH } from './discovery/robots-txt.js'
import { SITEMAP_PARTS_ROOT } from './discovery/sitemap.js'
import type { LiveReadRoute } from './live-read-routes.js'
import type { IncomingMessage } from 'node:http'
import type { ErrorBodyRenderer } from './render-error.js'
import type { MountAnswer } from './mount-reply.js'
import { ASSETS_ROOT } from './pages/assets.js'
import { GUIDES } from './pages/guide.js'
import { PAGE_CONTENT_SECURITY_POLICY } from './pages/index.js'
import { REFERENCE_CONTENT_SECURITY_POLICY } from './pages/reference.js'
import { SEARCH_PATH } from './pages/search-params.js'
import { isUnderPath } from './query.js'

/** A plain Node handler answering one address, from its one entry (mount-entry.ts). */
export type Mount = {
  path: string
  /** Reads the request and decides its answer; never rejects (failures are answered in the mount's own terms). */
  answer(req: IncomingMessage): Promise<MountAnswer>
  /** Body of the refusals the admission decided (quota, method, no records yet). */
  errorBody: ErrorBodyRenderer
}

/** The methods a mount may take (OPTIONS preflights are answered for it). */
type MountMethod = 'POST' | 'GET' | 'DELETE'

/** A plain Node handler served at `path`, next to the API (the MCP endpoint), from its one entry (mount-entry.ts). */
export type HttpMount = Mount & {
  /** Methods the handler answers; any other gets 405. */
  methods: readonly MountMethod[]
  /**
   * Whether the handler reads the records: it is then refused with 503 `unavailable` (and Retry-After)
   * before the first snapshot is loaded, as the API is, instead of failing inside its own protocol.
   */
  readsRecords: boolean
  /** Whether its requests count in the quota. */
  counted: boolean
  /** Request headers its clients send and response headers they read, for CORS. */
  cors: { requestHeaders: readonly string[]; responseHeaders: readonly string[] }
}

/** The CORS and security policies an address may have. */
type CorsName = 'api' | 'page' | 'reference' | 'private'

/** One address of the table, as written. */
type Declared = {
  readonly url: string
  readonly counted: boolean
  readonly cors: CorsName
  /** The operation the live-read redirect sends to `po_live=1` (docs/contract.md "Live-read redirect"). */
  readonly liveRead?: LiveReadRoute
  /**
   * Served only when the catalogue links an MCP endpoint (the server documents): otherwise not an
   * address (a 404), though what lies under it is still counted as written.
   */
  readonly withMcp?: true
}

/** The API's CORS: read-only methods, the headers its clients send and the ones they may read. */
const API_CORS: CorsPolicy = {
  methods: ['GET', 'HEAD'],
  requestHeaders: ['Content-Type', 'Accept', 'If-None-Match', 'X-Request-Id'],
  responseHeaders: [
    'ETag',
    'Retry-After',
    'RateLimit',
    'RateLimit-Policy',
    'X-Request-Id',
    'X-Publication-Id',
    'X-Records-Checksum',
    'Verification-Age',
  ],
}

const POLICIES: Record<CorsName, CorsPolicy> = {
  api: API_CORS,
  page: { ...API_CORS, contentSecurityPolicy: PAGE_CONTENT_SECURITY_POLICY },
  reference: { ...API_CORS, contentSecurityPolicy: REFERENCE_CONTENT_SECURITY_POLICY },
  // The operator's metrics: no page of another origin reads them (issue 32).
  private: { ...API_CORS, crossOrigin: false },
}

const api = (url: string, liveRead?: LiveReadRoute): Declared => ({
  url,
  counted: true,
  cors: 'api',
  liveRead,
})
const operational = (url: string, cors: CorsName = 'api'): Declared => ({ url, counted: false, cors })
const page = (url: string, counted: boolean, cors: CorsName = 'page'): Declared => ({ url, counted, cors })
/** The discovery documents count like pages (docs/contract.md "Extensions beyond the spec"). */
const discovery = (url: string, withMcp?: true): Declared => ({ url, counted: true, cors: 'api', withMcp })

/**
 * Every address the framework answers; each takes GET (and so HEAD) and OPTIONS. The mounts are
 * added from the composition root's list (`routeTable`), and the card hosted beside MCP from its link.
 */
const FRAMEWORK_ROUTES: readonly Declared[] = [
  // The API (docs/spec.md §4): `/api/v1` answers like `/api/v1/`.
  api(API_PREFIX, 'catalogue'),
  api(`${API_PREFIX}/`, 'catalogue'),
  api(`${API_PREFIX}/facts`, 'search'),
  api(`${API_PREFIX}/facts/:id`, 'record'),
  api(`${API_PREFIX}/openapi.json`, 'openapi'),
  api(`${API_PREFIX}/facts.ndjson`),
  api(CHANGES_PATH),
  // Operational endpoints: never counted.
  operational('/healthz'),
  operational('/readyz'),
  operational('/metrics', 'private'),
  // Pages for people: those that run a search or read a record count.
  page('/', false),
  page(SEARCH_PATH, true),
  page('/fiches', true),
  page('/fiches/:id', true),
  page('/reference', false, 'reference'),
  ...GUIDES.flatMap((guide) => [page(guide.path, false), page(`${guide.path}.md`, false)]),
  page('/docs/', false),
  page('/docs/*', false),
  operational(`${ASSETS_ROOT}/:hash/:name`),
  // Discovery documents.
  discovery(ROBOTS_PATH),
  discovery(DISCOVERY_PATHS.llms),
  discovery(DISCOVERY_PATHS.serverJson, true),
  discovery(DISCOVERY_PATHS.serverCard, true),
  discovery(DISCOVERY_PATHS.sitemap),
  discovery(`${SITEMAP_PARTS_ROOT}/:part`),
  discovery(DISCOVERY_PATHS.dcat),
  discovery(DISCOVERY_PATHS.changesAtom),
]

/** An address of the table, with everything derived from it computed once at start. */
export type Route = {
  /** As the router writes it (`:param`, `*`). */
  readonly url: string
  /** Methods its handler or mount takes (GET implies HEAD); OPTIONS is the admission's preflight. */
  readonly methods: readonly string[]
  /** The `Allow` field of its 405. */
  readonly allow: string
  readonly counted: boolean
  readonly cors: PreparedCors
  readonly liveRead?: LiveReadRoute
  /** The mount that answers it; undefined when a framework handler does. */
  readonly mount?: HttpMount
  /** Its label in the metrics and the log: the url with `{param}`, as the OpenAPI document writes it. */
  readonly template: string
}

/** What the table says of one request path: its route, if one matches, and how it is counted and answered. */
export type Addressed = {
  readonly route?: Route
  readonly counted: boolean
  readonly cors: PreparedCors
  /**
   * The fields of the site's 404 page at the path, for a browser that prefers a page (pages/index.ts):
   * its CORS with the pages' Content-Security-Policy. Undefined where a route matches, and under the
   * API, whose 404 is JSON only.
   */
  readonly notFoundPage?: PreparedCors
}

export type RouteTable = {
  /** Every address, in the order written. */
  readonly routes: readonly Route[]
  /** The table's reading of `path` (no query): the one every decision about a request reads. */
  lookup(path: string): Addressed
  /** The CORS and security fields of a request target (its query, if any, is ignored). */
  corsFor(target: string): PreparedCors
  /** Whether `route` takes `method` (HEAD with GET). */
  allows(route: Route, method: string): boolean
}

export type RouteTableOptions = {
  mounts: readonly HttpMount[]
  /**
   * The Server Card hosted beside the MCP endpoint the catalogue links (`/mcp/server-card`); undefined
   * when it links none, and then the server documents are not served either.
   */
  hostedServerCardPath?: string
}

/**
 * One address's matcher: its segments, a `:param` matching any one, a trailing `*` the rest. It
 * walks the path in place rather than splitting it: a record read runs it on every request, and the
 * split's array and strings were most of the table's cost per request (bench/profile-pair.ts).
 */
function matcherOf(url: string): (path: string) => boolean {
  const segments = url.split('/')
  const rest = segments.at(-1) === '*'
  const fixed = rest ? segments.slice(0, -1) : segments
  const isParam = fixed.map((segment) => segment.startsWith(':'))
  // The segments before the first parameter are literal: compared once, as one prefix.
  const literal = isParam.includes(true) ? isParam.indexOf(true) : fixed.length
  const prefix = fixed.slice(0, literal).join('/')
  return (path) => {
    if (!path.startsWith(prefix)) return false
    // The prefix's last segment must end there, not run on (`/api/v1/factsx`).
    if (path.length > prefix.length && path[prefix.length] !== '/') return false
    let start = prefix.length + 1 // where the path's next segment begins; past the end once its last one is read
    for (let i = literal; i < fixed.length; i++) {
      if (start > path.length) return false // fewer segments than the address
      let end = path.indexOf('/', start)
      if (end === -1) end = path.length
      const segment = fixed[i]!
      if (!isParam[i] && (end - start !== segment.length || !path.startsWith(segment, start))) return false
      start = end + 1
    }
    // `*` takes one more segment at least (an empty one too); otherwise none may be left.
    return rest ? start <= path.length : start > path.length
  }
}

/** The address its unknown sub-paths lie under: the url up to its first parameter. */
function rootOf(url: string): string {
  const i = url.search(/\/[:*]/)
  const root = i === -1 ? url : url.slice(0, i)
  return root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root
}

export function routeTable(options: RouteTableOptions): RouteTable {
  const prepared = new Map<string, PreparedCors>()
  /** A policy's fields, prepared once; `page`: with the pages' Content-Security-Policy (the site's 404 page). */
  const corsOf = (name: CorsName, page = false) => {
    const key = page ? `${name} page` : name
    let cors = prepared.get(key)
    if (cors === undefined) {
      const policy = page
        ? { ...POLICIES[name], contentSecurityPolicy: PAGE_CONTENT_SECURITY_POLICY }
        : POLICIES[name]
      prepared.set(key, (cors = prepareCors(policy)))
    }
    return cors
  }
  const declared = [
    ...FRAMEWORK_ROUTES,
    ...(options.hostedServerCardPath === undefined ? [] : [discovery(options.hostedServerCardPath, true)]),
  ]
  const served = options.hostedServerCardPath !== undefined
  const routeOf = (d: Declared): Route => ({
    url: d.url,
    methods: ['GET'],
    allow: 'GET, HEAD, OPTIONS',
    counted: d.counted,
    cors: corsOf(d.cors),
    liveRead: d.liveRead,
    template: d.url.replace(/:(\w+)/g, '{$1}'),
  })
  const routes: Route[] = declared.filter((d) => served || d.withMcp !== true).map(routeOf)
  for (const mount of options.mounts)
    routes.push({
      url: mount.path,
      methods: mount.methods,
      allow: [...mount.methods, 'OPTIONS'].join(', '),
      counted: mount.counted,
      cors: prepareCors({
        methods: mount.methods,
        requestHeaders: [...API_CORS.requestHeaders, ...mount.cors.requestHeaders],
        responseHeaders: [...API_CORS.responseHeaders, ...mount.cors.responseHeaders],
      }),
      mount,
      template: mount.path,
    })
  const urls = new Set<string>()
  for (const route of routes) {
    if (urls.has(route.url)) throw new Error(`route table: ${route.url} is written twice`)
    urls.add(route.url)
  }

  // Most requests name a fixed address: one map lookup. The few with parameters are tried in order.
  const exact = new Map<string, Addressed>()
  const patterns: { matches: (path: string) => boolean; addressed: Addressed }[] = []
  for (const route of routes) {
    const addressed: Addressed = { route, counted: route.counted, cors: route.cors }
    if (/\/[:*]/.test(route.url)) patterns.push({ matches: matcherOf(route.url), addressed })
    else exact.set(route.url, addressed)
  }
  // Beneath an address: its counting, and its CORS but a mount's (a mount answers its address only);
  // outside the API, the site's 404 page with the same CORS.
  const beneath = (root: string, counted: boolean, name: CorsName): Addressed => ({
    counted,
    cors: corsOf(name),
    notFoundPage: isUnderPath(root, API_PREFIX) ? undefined : corsOf(name, true),
  })
  // Every address written, served or not (a server document without its MCP link is counted as written).
  const roots = [
    ...declared.map((d) => ({ root: rootOf(d.url), counted: d.counted, cors: d.cors })),
    ...options.mounts.map((m) => ({ root: rootOf(m.path), counted: m.counted, cors: 'api' as const })),
  ]
    .map(({ root, counted, cors }) => ({ root, addressed: beneath(root, counted, cors) }))
    .sort((a, b) => b.root.length - a.root.length)
  const nowhere = beneath('/', false, 'api')

  const lookup = (path: string): Addressed => {
    const fixed = exact.get(path)
    if (fixed !== undefined) return fixed
    for (const pattern of patterns) if (pattern.matches(path)) return pattern.addressed
    for (const { root, addressed } of roots) if (isUnderPath(path, root)) return addressed
    return nowhere
  }
  return {
    routes,
    lookup,
    corsFor: (target) => lookup(target.split('?', 1)[0]!).cors,
    allows: (route, method) =>
      route.methods.includes(method) || (method === 'HEAD' && route.methods.includes('GET')),
  }
}
