/**
 * Builds the HTTP application (never listens): the API under /api/v1, operational endpoints, CORS,
 * the error body on every failure. `main.ts` composes it with a record source and listens.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { ApiError } from '../errors.js'
import type { Metrics } from '../metrics.js'
import type { Quota } from '../ratelimit/quota.js'
import { MCP_PATH, mcpRoutes } from '../mcp/http.js'
import { LocalRecordReader } from '../mcp/reader.js'
import type { LiveRecords } from '../records/live-records.js'
import { PACKAGE_VERSION } from '../version.js'
import { handleClientError } from './client-errors.js'
import { registerErrorHandlers, sendError, toApiError } from './error-handler.js'
import { requestId } from './logging.js'
import { refuseOtherMethods } from './methods.js'
import { registerRequestGuards } from './request-guards.js'
import { catalogueRoutes } from './routes/catalogue.js'
import { docsRoutes } from './routes/docs.js'
import { healthRoutes } from './routes/health.js'
import { recordRoutes } from './routes/records.js'
import { searchRoutes } from './routes/search.js'
import { API_PREFIX } from './schemas.js'

// Bounds on slow or idle clients; each must be shorter than the one after it for Node to apply it.
// Node checks the first two only every `checkEveryMs` (30 s by default, which would let a slow client
// hold a socket for up to 40 s).
const TIMEOUTS = { headersMs: 10_000, requestMs: 15_000, keepAliveMs: 5_000, checkEveryMs: 1_000 } as const

export type AppDeps = {
  records: LiveRecords
  config: Pick<Config, 'http' | 'publisher'>
  logger: Logger
  /** The request quota; undefined when disabled (RATE_LIMIT_PER_MINUTE=0). */
  quota?: Quota
  metrics: Metrics
}

export async function buildApp({ records, config, quota, metrics, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestId,
    requestIdHeader: false,
    // Only named proxies are believed; req.ip is then the right-most address they did not add.
    trustProxy: config.http.trustProxy ?? false,
    requestTimeout: TIMEOUTS.requestMs,
    http: { headersTimeout: TIMEOUTS.headersMs, connectionsCheckingInterval: TIMEOUTS.checkEveryMs },
    // Requests arriving while draining get our own 503 (below), with the error body and CORS.
    return503OnClosing: false,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    // Long enough that a malformed id gets its 400, not a 404 from the router.
    routerOptions: { maxParamLength: 1_000 },
    // Errors raised before routing (malformed percent-encoding in the path…) get the contract's body too.
    clientErrorHandler: handleClientError,
    frameworkErrors: (err, _req, reply) => sendError(reply, toApiError(err) ?? new ApiError('invalid_parameter', err.message)),
  })

  registerErrorHandlers(app)
  await registerRequestGuards(app, quota, metrics)

  const ctx = { records, publicBaseUrl: config.http.publicBaseUrl }
  const catalogueOptions = { requestsPerMinute: quota?.limit ?? 0, contact: config.publisher.contact, mcpPath: MCP_PATH }
  catalogueRoutes(app, ctx, catalogueOptions)
  searchRoutes(app, ctx)
  recordRoutes(app, ctx)
  healthRoutes(app, records, metrics)
  docsRoutes(app)
  await mcpRoutes(app, new LocalRecordReader(records, { ...catalogueOptions, publicBaseUrl: ctx.publicBaseUrl }), PACKAGE_VERSION)
  refuseOtherMethods(app, [MCP_PATH], { served: ['POST', 'GET', 'HEAD', 'DELETE', 'OPTIONS'], allow: 'POST, OPTIONS' })
  refuseOtherMethods(app, [API_PREFIX, `${API_PREFIX}/`, `${API_PREFIX}/facts`, `${API_PREFIX}/facts/:id`, `${API_PREFIX}/openapi.json`, '/healthz', '/readyz', '/metrics', '/docs'])
  return app
}
