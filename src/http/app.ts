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
import { catalogueLinks, type Catalogues } from '../core/api/catalogue.js'
import { validatePath } from '../core/api/params.js'
import { API_PREFIX, FactPathSchema } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import type { Quota } from '../core/quota/quota.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import { PACKAGE_VERSION } from '../core/version.js'
import { clientErrorHandler } from './client-errors.js'
import type { Connections, DrainOptions } from './connections.js'
import { registerErrorHandlers, sendError, toApiError } from './error-handler.js'
import {
  admittedFields,
  completionLog,
  createCompletions,
  type CounterCell,
  type RequestObserver,
} from './respond.js'
import { ApiAnswers, createFastPath } from './api-answers.js'
import { createMountEntry } from './mount-entry.js'
import type { CorsTable } from './cors.js'
import type { McpDescription } from './discovery/identity.js'
import { clientAddresses, hostGuard, requestId } from './front-door.js'
import { registerDiscovery } from './discovery/routes.js'
import { hostedServerCardPath } from './discovery/server-card.js'
import { checkNodeInternals } from './node-internals.js'
import { registerAdmission } from './apply-admission.js'
import { admissionOf, createAdmission, type QuotaTally } from './admission.js'
import { routeTable, type HttpMount, type RouteTable } from './route-table.js'
import { MAX_ID_LENGTH } from './live-read-routes.js'
import { catalogueRoutes } from './routes/catalogue.js'
import { changesRoutes } from './routes/changes.js'
import { changesAtomRoutes } from './routes/changes-atom.js'
import { feedFromSwaps, type ChangeFeed } from '../core/changes/change-feed.js'
import { registerPages, type Pages } from './pages/index.js'
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
    /** The address listened on (HOST) and the further hosts answered for: the DNS-rebinding guard (front-door.ts). */
    listenAddress?: string
    allowedHosts?: readonly string[]
  }
  logger: Logger
  /** The request quota; undefined when disabled. */
  quota?: Quota
  metrics: MetricsExposition
  /** Told of every request refused by the quota. */
  onQuotaRefused: () => void
  /** The tallies of the quota's decisions by the kind of store that decided (for metrics). */
  quotaTally?: QuotaTally
  /** The tally of the answers the fast path sends (for metrics). */
  fastAnswers?: CounterCell
  /** Told of every answered request, whoever answered it (the request metrics). */
  onRequestCompleted?: RequestObserver
  /** Where client faults are reported (requests the HTTP parser refused): a low-level, rate-limited log. */
  onClientFault: (fields: object, message: string) => void
  mounts: readonly HttpMount[]
  /** The MCP endpoint as the discovery documents describe it; needed when the catalogue links one. */
  mcp?: McpDescription
}

/** The HTTP adapter: the framework app, and the drain of its connections. */
export type HttpApp = {
  app: FastifyInstance
  /** Every address it answers, with what each takes (route-table.ts). */
  routes: RouteTable
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
  const mcpLink = catalogueLinks(deps.catalogues.options).mcp
  const routes = routeTable({
    mounts: deps.mounts,
    hostedServerCardPath: mcpLink === undefined ? undefined : hostedServerCardPath(mcpLink),
  })
  const cors: CorsTable = { policyFor: routes.corsFor }
  const errorBodyFor = (path: string) => routes.lookup(path).route?.mount?.errorBody
  const clients = clientAddresses(deps.settings.trustProxy)
  const answers = new ApiAnswers(deps.catalogues, deps.settings.publicBaseUrl)
  const completions = createCompletions({
    log: completionLog(deps.logger, deps.settings.logHashKey),
    observe: deps.onRequestCompleted,
    clients,
    templateOfPath: (path) => routes.lookup(path).route?.template,
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
          answered: deps.fastAnswers,
          completions,
        })
  const mounts = createMountEntry({ completions })
  const admit = createAdmission({
    routes,
    quota: deps.quota,
    clients,
    requestId,
    records: deps.records,
    answers,
    hostGuard:
      deps.settings.listenAddress === undefined
        ? undefined
        : hostGuard({
            listenAddress: deps.settings.listenAddress,
            publicBaseUrl: deps.settings.publicBaseUrl,
            allowedHosts: deps.settings.allowedHosts,
          }),
    onQuotaRefused: deps.onQuotaRefused,
    quotaTally: deps.quotaTally,
    onFault: (err, reqId) => deps.logger.error({ err, reqId }, 'admission failed'),
  })
  const server = httpServerParts({
    cors,
    errorBodyFor,
    requestId,
    mounts,
    fastPath,
    timeouts,
    admit,
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
      // Admitted before the router failed: a counted request carries the quota's fields.
      const quota = admissionOf(req.raw)?.quota
      reply.headers(cors.policyFor(req.url).response).headers(admittedFields({ id: req.id, quota }))
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
  registerErrorHandlers(app, {
    // Where the route table gives the path a 404 page (outside the API), with that page's fields.
    notFoundPage: (req) => {
      const fields = admissionOf(req.raw)?.notFoundPage?.response
      if (fields === undefined) return undefined
      const page = pages.current?.notFoundPage(req)
      return page === undefined ? undefined : { ...page, fields }
    },
  })
  registerAdmission(app)
  const registered = registerFromTable(app, routes)

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
  registered.complete()
  return {
    app,
    routes,
    connections: server.connections,
    async drain(options) {
      if (app.server.listening) await server.connections().drain(options)
      await app.close()
    },
  }
}

/**
 * Holds the framework's routes to the table (route-table.ts): a handler registered at an address the
 * table does not list, or for a method it does not give, fails the start, and so does an address
 * listed for the framework that no handler answers (`complete`, once every module registered). The
 * 405s need no route of their own: the admission refuses a method the table does not give.
 */
function registerFromTable(app: FastifyInstance, routes: RouteTable): { complete(): void } {
  const expected = new Map(routes.routes.filter((r) => r.mount === undefined).map((r) => [r.url, r]))
  const answered = new Set<string>()
  app.addHook('onRoute', (options) => {
    // A Fastify schema fails the start on its own, with its own reason (noFrameworkSchemas).
    if (options.schema !== undefined) return
    const route = expected.get(options.url ?? '')
    const methods = Array.isArray(options.method) ? options.method : [options.method]
    if (route === undefined)
      throw new Error(`http: a handler is registered at ${options.url}, which the route table does not list`)
    for (const method of methods)
      if (!routes.allows(route, method))
        throw new Error(
          `http: ${method} ${options.url} is registered, but the route table gives it ${route.allow}`,
        )
    answered.add(route.url)
  })
  return {
    complete() {
      const missing = [...expected.keys()].filter((url) => !answered.has(url))
      if (missing.length > 0)
        throw new Error(`http: the route table lists ${missing.join(', ')}, which no handler answers`)
    },
  }
}
