/**
 * The composition root: the one module that knows every part. Settings → record source → snapshot →
 * quota → the MCP handler and the HTTP app over the same core → listen; reloads and graceful
 * shutdown. Kept free of argument parsing so tests can start a real server.
 */
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader } from '../core/api/reader.js'
import { createQuota } from '../core/quota/create-quota.js'
import type { Quota } from '../core/quota/quota.js'
import { limitRepeats } from '../core/log.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { SnapshotLoader } from '../core/snapshots/load-snapshot.js'
import { PACKAGE_VERSION } from '../core/version.js'
import type { Timeouts } from '../http/server.js'
import type { RouteTable } from '../http/route-table.js'
import { createLogger } from './logger.js'
import { createMetrics, storeLabel } from './metrics.js'
import { createQuotaStoreMetrics } from './quota-store-metrics.js'
import { openRecords } from './records.js'

/** How the service drains on close. */
type DrainSettings = {
  /** How long idle connections stay open for a request already on its way, in ms. Default 1 000. */
  graceMs?: number
  /** When every connection is closed, in ms after close() starts. Default 8 000 (below the 10 s signal grace). */
  boundMs?: number
}

export type Service = {
  app: FastifyInstance
  /** Every address the service answers, with its methods, counting and CORS (src/http/route-table.ts). */
  routes: RouteTable
  records: LiveRecords
  logger: Logger
  /** Starts listening (HOST:PORT from the config) and returns the base URL, e.g. "http://127.0.0.1:8080". */
  listen(): Promise<string>
  /** Stops accepting, lets in-flight requests finish, stops following the source, releases Redis, stops the process metrics. */
  close(): Promise<void>
  /**
   * Settles when the search warm-up's background rounds are done (a search a turn, after start:
   * warm-up.ts). Nothing waits for it; a measurement of what one request runs does.
   */
  warmedUp: Promise<void>
}
export type RunningServer = Service & { url: string }

/**
 * Releases what a start has opened so far, last opened first; a failed start must not leave Redis
 * reconnecting forever. One failing close does not stop the others, and is logged.
 */
class Resources {
  readonly #closers: (() => Promise<void>)[] = []
  constructor(private readonly logger: Logger) {}
  add(close: () => Promise<void>): void {
    this.#closers.unshift(close)
  }
  async closeAll(): Promise<void> {
    for (const close of this.#closers.splice(0)) {
      await close().catch((err: unknown) => this.logger.error({ err }, 'closing a resource failed'))
    }
  }
}

/**
 * Builds the service without listening. From a file, the first load must succeed (a bad file stops
 * the start); from PostgreSQL, the service starts before the first snapshot and is not ready until
 * one is loaded. Later changes of the source are reloaded and swapped in whole; a bad update is
 * logged and the good snapshot stays. If any step fails, what the earlier steps opened is closed before the error is thrown.
 */
/** What tests and embedders may set besides the config. */
export type ServiceOptions = {
  logger?: Logger
  drain?: DrainSettings
  /** Bounds on slow, idle and stalled clients, in ms (tests shorten them). */
  timeouts?: Partial<Timeouts>
  /** Prepared answers through the fast path in front of the framework (default true); see http/app.ts. */
  fastPath?: boolean
  /**
   * How snapshots are built: by default in worker threads for a large source, so that serving never
   * waits on a build, and on the serving thread for a small one, where a thread costs more than the
   * build (loadSnapshot). Tests may force either.
   */
  load?: SnapshotLoader
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.log.level)
  const resources = new Resources(logger)
  try {
    const metrics = createMetrics()
    resources.add(async () => metrics.close())
    // Loaded only when an OTLP endpoint is set: without one, no OpenTelemetry module is ever loaded.
    // Opened first, so closed last: the spans of the requests a shutdown drains are exported too.
    let quotaStore: () => string | undefined = () => undefined
    const tracing =
      config.traces === undefined
        ? undefined
        : (await import('./traces.js')).startTracing(config.traces, {
            version: PACKAGE_VERSION,
            log: logger,
            quotaStore: () => quotaStore(),
          })
    if (tracing !== undefined) resources.add(() => tracing.close())
    // The first load runs in its worker while the rest is set up; a file's must succeed (awaited
    // below, before the service is returned), PostgreSQL's snapshots may not exist yet (then:
    // unavailable until the first).
    const followed = await openRecords(config.records, { log: logger, metrics, load: options.load })
    resources.add(() => followed.close())
    // The adapters' modules (Fastify, the MCP SDK: about 0.2 s to load) are loaded while that
    // first load starts its worker, not before it.
    const [
      { buildHttpApp },
      { MCP_PATH, MCP_REQUEST_HEADERS, MCP_RESPONSE_HEADERS, createMcpNodeHandler },
      { recordPath },
    ] = await Promise.all([
      import('../http/app.js'),
      import('../mcp/node-handler.js'),
      import('../http/pages/record-view.js'),
    ])
    // While the first load runs in its worker: the search's evaluators run once on the bundled
    // sample (warm-up.ts), so that a client's first search of several words does not compile them.
    const { sampleIndex, warmSearch, warmSearchInTurns } = await import('../core/search/warm-up.js')
    const sample = sampleIndex()
    warmSearch(sample)
    // More rounds in the background, a search a turn, for the loops of a large snapshot (warm-up.ts).
    let closing = false
    resources.add(async () => {
      closing = true
    })
    const warmedUp = warmSearchInTurns(sample, undefined, () => closing).then(
      () => undefined,
      (err: Error) => logger.warn({ problem: err.message }, 'search warm-up failed'),
    )
    const records = followed.records
    // Already loaded with the MCP handler's modules: asks the endpoint what the discovery documents say of it.
    const { describeMcp } = await import('./mcp-description.js')

    const quotaStoreMetrics =
      config.quota.redisUrl === undefined ? undefined : createQuotaStoreMetrics(metrics.registry)
    const quota: Quota | undefined = await createQuota(config.quota, {
      log: logger,
      onFailure: (reason) => quotaStoreMetrics?.failed(reason),
      onDegraded: () => {
        metrics.quotaFallbacks.inc()
        metrics.quotaDegraded.set(1)
        quotaStoreMetrics?.unavailable()
      },
      onRecovered: () => {
        metrics.quotaDegraded.set(0)
        quotaStoreMetrics?.shared()
      },
    })
    if (quota !== undefined) resources.add(() => quota.close())
    // Labelled as the metrics label it: `fallback` while a Redis store counts in memory.
    quotaStore = () => (quota === undefined ? undefined : storeLabel(quota.store.kind))
    // The decisions' series exist from the start, at 0: the configured store's, and the fallback's with Redis.
    if (quota !== undefined) metrics.quotaStores(quota.store.kind)
    logger.info({ store: quota?.store.kind ?? 'none', perMinute: quota?.limit ?? 0 }, 'request quota')

    const catalogues = new Catalogues({
      publicBaseUrl: config.http.publicBaseUrl,
      requestsPerMinute: quota?.limit ?? 0,
      contact: config.publisher.contact,
      mcpPath: MCP_PATH,
    })
    // Client faults (a malformed request, an aborted upload) are the client's doing: one low-level
    // line each, without a stack, and no more than a few of a kind per minute.
    const clientFault = limitRepeats((fields, message) => logger.debug(fields, message))
    // Answers link to the record's page on this service (absolute with a public base URL), as the pages do.
    const pagesBase = config.http.publicBaseUrl ?? ''
    const mcp = createMcpNodeHandler(new LocalRecordReader(records, catalogues), {
      version: PACKAGE_VERSION,
      recordPage: (r) => `${pagesBase}${recordPath(r.id)}`,
      log: { debug: clientFault },
      snapshot: options.fastPath === false ? undefined : () => records.current,
      onKeptAnswer: () => metrics.mcpKeptAnswers.inc(),
      onToolCall:
        tracing === undefined
          ? metrics.toolCall
          : (tool, outcome, request, message) => {
              metrics.toolCall(tool, outcome)
              tracing.toolCall(tool, outcome, request, message)
            },
    })
    resources.add(() => mcp.close())
    // The tools' first call in a process, on the sample (mcp-warm-up.ts): not a client's to pay for.
    const { warmMcpTools } = await import('./mcp-warm-up.js')
    await warmMcpTools(sample, {
      version: PACKAGE_VERSION,
      recordPage: (r) => `${pagesBase}${recordPath(r.id)}`,
      catalogues,
      createHandler: createMcpNodeHandler,
    }).then(
      (failed) => {
        if (failed.length > 0) logger.warn({ tools: failed }, 'mcp warm-up: some tools did not answer')
      },
      (err: Error) => logger.warn({ problem: err.message }, 'mcp warm-up failed'),
    )
    const http = await buildHttpApp({
      records,
      changes: followed.changes,
      catalogues,
      settings: {
        publicBaseUrl: config.http.publicBaseUrl,
        trustProxy: config.http.trustProxy,
        listenAddress: config.http.host,
        allowedHosts: config.allowedHosts,
        logHashKey: config.log.hashKey,
        metricsAllow: config.metrics.allow,
        timeouts: options.timeouts,
        fastPath: options.fastPath,
      },
      logger,
      quota,
      metrics: metrics.exposition,
      onQuotaRefused: () => metrics.quotaRefused.inc(),
      quotaTally: metrics.quotaDecisionCells,
      onRequestCompleted: metrics.requestCompleted,
      fastAnswers: metrics.fastPathAnswers,
      onClientFault: clientFault,
      mcp: describeMcp(mcp),
      mounts: [
        {
          path: MCP_PATH,
          methods: ['POST'],
          answer: mcp.answer,
          errorBody: mcp.errorBody,
          counted: true,
          readsRecords: true,
          cors: { requestHeaders: MCP_REQUEST_HEADERS, responseHeaders: MCP_RESPONSE_HEADERS },
        },
      ],
    })
    const { app } = http
    tracing?.traceServer(app.server)
    try {
      await followed.loaded
    } catch (err) {
      await app.close() // never listened: nothing to drain
      throw err
    }
    resources.add(async () => {
      const started = Date.now()
      logger.info(
        { connections: http.connections().size },
        'shutting down: refusing new requests, finishing those in flight',
      )
      await http.drain({ graceMs: options.drain?.graceMs ?? 1_000, boundMs: options.drain?.boundMs ?? 8_000 })
      logger.info({ ms: Date.now() - started }, 'stopped')
    })

    return {
      app,
      routes: http.routes,
      records,
      logger,
      async listen() {
        await app.listen({ port: config.http.port, host: config.http.host, backlog: config.http.backlog })
        const address = app.server.address()
        if (typeof address !== 'object' || address === null) return String(address)
        return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      },
      close: () => resources.closeAll(),
      warmedUp,
    }
  } catch (err) {
    await resources.closeAll()
    throw err
  }
}

/** Builds and listens; with `handleSignals`, SIGTERM/SIGINT drain in-flight requests and exit 0. */
export async function startServer(
  config: Config,
  options: ServiceOptions & { handleSignals?: boolean } = {},
): Promise<RunningServer> {
  const service = await createService(config, options)
  let url: string
  try {
    url = await service.listen()
  } catch (err) {
    await service.close()
    throw err
  }
  if (options.handleSignals) {
    // Give in-flight requests 10 s to finish; past that exit 1 rather than hang a deployment.
    closeWithGrace({ delay: 10_000, logger: service.logger }, async ({ err }) => {
      if (err) service.logger.error({ err }, 'stopping after an uncaught error')
      await service.close()
    })
  }
  return { ...service, url }
}
