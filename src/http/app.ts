/**
 * The HTTP adapter (Fastify): builds the application, never listens. The API under /api/v1, the
 * operational endpoints, CORS and the error body on every failure, plus whatever plain Node
 * handlers the composition root mounts next to the API (the MCP endpoint). It knows no mount's
 * protocol: a mount brings its path, its methods, its CORS headers and its error body.
 */
import { METHODS } from 'node:http'
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyServerFactory,
} from 'fastify'
import type { Logger } from 'pino'
import type { Catalogues } from '../core/api/catalogue.js'
import { validatePath } from '../core/api/params.js'
import { API_PREFIX, FactPathSchema } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import type { Quota } from '../core/quota/quota.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import { PACKAGE_VERSION } from '../core/version.js'
import { clientErrorHandler } from './client-errors.js'
import type { Connections, DrainOptions } from './connections.js'
import { registerErrorHandlers, sendError, toApiError } from './error-handler.js'
import { completionLog, requestId } from './logging.js'
import { createCompletions, type RequestObserver } from './completions.js'
import { ApiAnswers } from './api-answers.js'
import { clientAddresses } from './client-address.js'
import { createFastPath } from './fast-path.js'
import { createMountEntry, type Mount } from './mount-entry.js'
import { corsTable, type CorsPolicy } from './cors.js'
import type { McpDescription } from './discovery/identity.js'
import { hostGuard } from './host-guard.js'
import { DISCOVERY_ROOTS, registerDiscovery } from './discovery/routes.js'
import { methodRefusals, refuseOtherMethods } from './methods.js'
import { checkNodeInternals } from './node-internals.js'
import { isUnderPath } from './query.js'
import { registerAdmission } from './apply-admission.js'
import { admissionOf, createAdmission, type Admit } from './admission.js'
import { MAX_ID_LENGTH } from './live-read-routes.js'
import { rateLimitFields } from './rate-limit-fields.js'
import { catalogueRoutes } from './routes/catalogue.js'
import { changesRoutes } from './routes/changes.js'
import { changesAtomRoutes } from './routes/changes-atom.js'
import { feedFromSwaps, type ChangeFeed } from '../core/changes/change-feed.js'
import { PAGE_COUNTED_ROOTS, PAGE_POLICIES, registerPages, type Pages } from './pages/index.js'
import { downloadRoutes } from './routes/download.js'
import { healthRoutes, type MetricsExposition } from './routes/health.js'
import { allowedClients } from './allowed-clients.js'
import { recordRoutes } from './routes/records.js'
import { searchRoutes } from './routes/search.js'
import { DEFAULT_TIMEOUTS, httpServerParts, type Timeouts } from './server.js'

/** The contract's refusal for what the router cannot route: a malformed path, an overlong path parameter. */
function routerRefusal(err: FastifyError, url: string): ApiError {
  const path = url.split('?', 1)[0]!
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // The only parameter in our paths is a record id: say what an id looks like, as for any malformed one.
    try {
      validatePath(FactPathSchema, { id: decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) })
    } catch (refusal) {
      if (refusal instanceof ApiError) return refusal
    }
  }
  if (err.code === 'FST_ERR_BAD_URL')
    return new ApiError('invalid_parameter', `The path is not validly percent-encoded: ${truncated(path)}`)
  return toApiError(err) ?? new ApiError('invalid_parameter', err.message)
}

const truncated = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}…` : text)

/** A plain Node handler served at `path`, next to the API (the MCP endpoint), from its one entry (mount-entry.ts). */
type HttpMount = Mount & {
  /** Methods the handler answers (OPTIONS preflights are answered for it); any other gets 405. */
  methods: readonly ('POST' | 'GET' | 'DELETE')[]
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

export type HttpAppDeps = {
  records: LiveRecords
  /** The change feed (GET /api/v1/changes); when not given, kept in memory from the swaps of `records`. */
  changes?: ChangeFeed
  catalogues: Catalogues
  settings: {
    /** Public base URL for absolute links (Location, catalogue links, OpenAPI servers). */
    publicBaseUrl?: string
    /** Proxies whose X-Forwarded-For is believed. */
    trustProxy?: readonly string[]
    /** Key of the hash that replaces client addresses in logs; random when absent. */
    logHashKey?: string
    /** Clients that may read /metrics (METRICS_ALLOW entries); loopback and private networks when absent. */
    metricsAllow?: readonly string[]
    /** Bounds on slow, idle and stalled clients; the defaults of server.ts for those not given. */
    timeouts?: Partial<Timeouts>
    /**
     * Whether prepared answers go out through the fast path in front of the framework (default true).
     * Off, the framework answers everything, the same bytes more slowly: for the differential test,
     * and for an operator who wants to rule the fast path out.
     */
    fastPath?: boolean
    /** The address listened on (HOST) and the further hosts answered for: the DNS-rebinding guard (host-guard.ts). */
    listenAddress?: string
    allowedHosts?: readonly string[]
  }
  logger: Logger
  /** The request quota; undefined when disabled. */
  quota?: Quota
  metrics: MetricsExposition
  /** Told of every request refused by the quota. */
  onQuotaRefused: () => void
  /** Told of every decision of the quota, admitted or refused (for metrics). */
  onQuotaDecision?: (allowed: boolean) => void
  /** Told of every answer the fast path sends (for metrics). */
  onFastAnswer?: () => void
  /** Told of every answered request, whoever answered it (the request metrics). */
  onRequestCompleted?: RequestObserver
  /** Where client faults are reported (requests the HTTP parser refused): a low-level, rate-limited log. */
  onClientFault: (fields: object, message: string) => void
  mounts: readonly HttpMount[]
  /** The MCP endpoint as the discovery documents describe it; needed when the catalogue links one. */
  mcp?: McpDescription
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

/** The HTTP adapter: the framework app, and the drain of its connections. */
export type HttpApp = {
  app: FastifyInstance
  /** Open connections, tracked by the front door. */
  connections(): Connections
  /**
   * Refuses new requests (503), stops accepting connections, lets requests in flight finish, closes
   * the rest by `boundMs`; then closes the app (its onClose hooks run).
   */
  drain(options: DrainOptions): Promise<void>
}

/** Fastify's compiler factories for a service whose routes declare no Fastify schema (see buildHttpApp). */
function noFrameworkSchemas(): never {
  throw new Error(
    "a route declares a Fastify schema: this service validates with the core's zod schemas (src/core/api), not with Fastify's",
  )
}

export async function buildHttpApp(deps: HttpAppDeps): Promise<HttpApp> {
  const cors = corsTable(
    API_CORS,
    deps.mounts
      .map((m): { path: string; policy: CorsPolicy } => ({
        path: m.path,
        policy: {
          methods: m.methods,
          requestHeaders: [...API_CORS.requestHeaders, ...m.cors.requestHeaders],
          responseHeaders: [...API_CORS.responseHeaders, ...m.cors.responseHeaders],
        },
      }))
      .concat(
        PAGE_POLICIES.map((p) => ({
          path: p.path,
          policy: { ...API_CORS, contentSecurityPolicy: p.contentSecurityPolicy },
        })),
      )
      // The operator's metrics: no page of another origin reads them (issue 32).
      .concat([{ path: '/metrics', policy: { ...API_CORS, crossOrigin: false } }]),
  )
  const errorBodyFor = (path: string) => deps.mounts.find((m) => isUnderPath(path, m.path))?.errorBody
  const clients = clientAddresses(deps.settings.trustProxy)
  const answers = new ApiAnswers(deps.catalogues, deps.settings.publicBaseUrl)
  const completions = createCompletions({
    log: completionLog(deps.logger, deps.settings.logHashKey),
    observe: deps.onRequestCompleted,
    clients,
    mountPaths: deps.mounts.map((m) => m.path),
  })
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.settings.timeouts }
  if ((await checkNodeInternals()) !== 'node-mark') {
    deps.logger.warn(
      'this Node keeps no mark of the connections it pauses itself: resuming a connection reads the public writableNeedDrain instead (see docs/design.md, "Node\'s internals")',
    )
  }
  const fastPath =
    deps.settings.fastPath === false
      ? undefined
      : createFastPath({
          records: deps.records,
          answers,
          cors: cors.policyFor(API_PREFIX),
          quotaPolicy: deps.quota === undefined ? undefined : rateLimitFields(deps.quota).policy,
          onAnswer: deps.onFastAnswer,
          completions,
        })
  const mounts = createMountEntry({
    mounts: deps.mounts,
    cors,
    quotaPolicy: deps.quota === undefined ? undefined : rateLimitFields(deps.quota).policy,
    completions,
  })
  // Built once the router exists (it says which methods a path refuses), before the server listens;
  // the server's listener, made before the router, reads it then.
  // eslint-disable-next-line prefer-const -- assigned below, once, after the closure that reads it
  let admit: Admit | undefined
  const server = httpServerParts({
    cors,
    errorBodyFor,
    requestId,
    mounts,
    fastPath,
    timeouts,
    admit: () => admit!,
    completions,
  })
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One completion line per request (below), the same as the fast path's, and no child logger per request.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    // The id admission gave the request (admission.ts): every request comes through the front door.
    genReqId: (req) => admissionOf(req)!.id,
    requestIdHeader: false,
    // Only named proxies are believed; req.ip is then the right-most address they did not add.
    trustProxy: clients.trust,
    serverFactory: server.factory as FastifyServerFactory,
    // The front door drains connections itself (see connections.ts), then closes the app.
    forceCloseConnections: false,
    return503OnClosing: false,
    // Long enough that a malformed id gets its 400, not a 404 from the router.
    routerOptions: { maxParamLength: MAX_ID_LENGTH },
    // No route declares a Fastify schema: parameters are validated by the core's zod schemas
    // (src/core/api), and answers are serialised by the core. Without these factories Fastify loads
    // Ajv and fast-json-stringify at every start for nothing (about 75 ms of CPU, spent while the
    // first snapshot is being built); a route that declares one fails at start.
    schemaController: {
      compilersFactory: { buildValidator: noFrameworkSchemas, buildSerializer: noFrameworkSchemas },
    },
    // Requests the HTTP parser refuses get the contract's body too, once and in order.
    clientErrorHandler: clientErrorHandler(
      server.server,
      server.connections,
      cors,
      deps.onClientFault,
      completions,
    ),
    // Errors the router raises before any hook ran: they get CORS and the contract's body too, and a
    // message that does not echo the whole (possibly 8 KB) target back.
    frameworkErrors: (err, req, reply) => {
      // Answered before routing, so no onResponse hook: reported here, by the path's template.
      completions.whenFinished(req.raw, reply.raw, completions.routeOfPath(req.url.split('?', 1)[0]!), req.id)
      reply.headers(cors.policyFor(req.url).response).header('x-request-id', req.id)
      // Admitted before the router failed: a counted request carries the quota's fields.
      const quota = admissionOf(req.raw)?.quota
      if (quota !== undefined)
        reply.header('ratelimit-policy', quota.policy).header('ratelimit', quota.remaining)
      void sendError(reply, routerRefusal(err, req.url))
    },
  })
  // Every method Node's parser accepts is known to the router, so any of them gets 405 on our paths
  // (docs/contract.md "Methods"), not a 404. CONNECT never reaches the router (see server.ts).
  for (const method of METHODS)
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method))
      app.addHttpMethod(method, { hasBody: true })

  if (completions.active) {
    app.addHook('onResponse', (req, reply, done) => {
      completions.finished(
        req.raw,
        reply.statusCode,
        // No route: the path's own template when it has one (a preflight, a 429 on an API path), else unmatched.
        req.is404
          ? completions.routeOfPath(req.url.split('?', 1)[0]!)
          : completions.routeOfFramework(req.routeOptions.url),
        req.id,
        req.ip,
      )
      done()
    })
  }

  // The pages register after the guards; the not-found handler asks them once they exist.
  const pages: { current?: Pages } = {}
  registerErrorHandlers(app, { notFoundPage: (req, reply) => pages.current?.notFoundPage(req, reply) })
  const refusals = methodRefusals(app)
  admit = createAdmission({
    cors,
    quota: deps.quota,
    countedRoots: [
      API_PREFIX,
      ...PAGE_COUNTED_ROOTS,
      ...DISCOVERY_ROOTS,
      ...deps.mounts.filter((m) => m.counted).map((m) => m.path),
    ],
    refusesMethod: (method, path) => refusals.refuses(method, path),
    clients,
    requestId,
    records: deps.records,
    answers,
    readingRecords: deps.mounts.filter((m) => m.readsRecords).map((m) => m.path),
    mounts: deps.mounts,
    hostGuard:
      deps.settings.listenAddress === undefined
        ? undefined
        : hostGuard({
            listenAddress: deps.settings.listenAddress,
            publicBaseUrl: deps.settings.publicBaseUrl,
            allowedHosts: deps.settings.allowedHosts,
          }),
    onQuotaRefused: deps.onQuotaRefused,
    onQuotaDecision: deps.onQuotaDecision,
    onFault: (err, reqId) => deps.logger.error({ err, reqId }, 'admission failed'),
  })
  registerAdmission(app)

  const ctx = { records: deps.records, publicBaseUrl: deps.settings.publicBaseUrl, answers }
  catalogueRoutes(app, ctx)
  searchRoutes(app, ctx)
  recordRoutes(app, ctx)
  downloadRoutes(app, ctx)
  const changes = deps.changes ?? feedFromSwaps(deps.records)
  changesRoutes(app, ctx, changes)
  changesAtomRoutes(app, { ...deps, publicBaseUrl: deps.settings.publicBaseUrl }, changes)
  healthRoutes(
    app,
    deps.records,
    deps.metrics,
    allowedClients(deps.settings.metricsAllow ?? ['loopback', 'private']),
  )
  pages.current = registerPages(app, {
    records: deps.records,
    catalogues: deps.catalogues,
    publicBaseUrl: deps.settings.publicBaseUrl,
    quotaPerMinute: deps.quota?.limit,
  })
  registerDiscovery(app, {
    records: deps.records,
    catalogues: deps.catalogues,
    publicBaseUrl: deps.settings.publicBaseUrl,
    version: PACKAGE_VERSION,
    mcp: deps.mcp,
  })
  const apiPaths = [
    API_PREFIX,
    `${API_PREFIX}/`,
    `${API_PREFIX}/facts`,
    `${API_PREFIX}/facts/:id`,
    `${API_PREFIX}/openapi.json`,
  ]
  refuseOtherMethods(app, [...apiPaths, '/healthz', '/readyz', '/metrics'])
  return {
    app,
    connections: server.connections,
    async drain(options) {
      if (app.server.listening) await server.connections().drain(options)
      await app.close()
    },
  }
}
