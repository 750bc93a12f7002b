/**
 * Composition root of the service: config → record source → snapshot → HTTP app → listen, plus
 * reloads and graceful shutdown. Kept free of argument parsing so tests can start a real server.
 */
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import { buildApp } from './http/app.js'
import { createLogger } from './http/logging.js'
import { createMetrics } from './metrics.js'
import { createQuota } from './ratelimit/create-quota.js'
import { FileRecordSource } from './records/file-source.js'
import { followSource, loadInto } from './records/follow.js'
import { LiveRecords } from './records/live-records.js'
import type { RecordSource } from './records/source.js'

export type Service = {
  app: FastifyInstance
  records: LiveRecords
  /** Starts listening (HOST:PORT from the config) and returns the base URL, e.g. "http://127.0.0.1:8080". */
  listen(): Promise<string>
  /** Stops accepting, lets in-flight requests finish, stops following the source. */
  close(): Promise<void>
}
export type RunningServer = Service & { url: string }

/**
 * Builds the service without listening. The first load must succeed (a bad file stops the start).
 * Later changes of the source are reloaded and swapped in whole; a bad update is logged and the good
 * snapshot stays.
 */
export async function createService(config: Config): Promise<Service> {
  const source: RecordSource = new FileRecordSource(config.records.file)
  const records = new LiveRecords()
  const metrics = createMetrics()
  records.onSwap((index) => metrics.records.set(index.size))
  const first = await loadInto(source, records)
  const logger = createLogger(config.log.level, config.log.hashKey)
  const quota = await createQuota(config.quota, logger, metrics)
  const app = await buildApp({ records, config, quota, metrics, logger })
  app.log.info({ origin: source.origin, records: first.size, version: first.version }, 'records loaded')
  app.log.info({ store: quota?.store.kind ?? 'none', perMinute: quota?.limit ?? 0 }, 'request quota')
  const follower = followSource(source, records, app.log, () => metrics.recordsUpdatesRefused.inc())
  return {
    app,
    records,
    async listen() {
      await app.listen({ port: config.http.port, host: config.http.host })
      const address = app.server.address()
      if (typeof address !== 'object' || address === null) return String(address)
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
    },
    async close() {
      follower.stop()
      await app.close()
      await Promise.all([source.close(), quota?.store.close()])
    },
  }
}

/** Builds and listens; with `handleSignals`, SIGTERM/SIGINT drain in-flight requests and exit 0. */
export async function startServer(config: Config, options: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const service = await createService(config)
  const url = await service.listen()
  if (options.handleSignals) {
    // Give in-flight requests 10 s to finish; past that exit 1 rather than hang a deployment.
    closeWithGrace({ delay: 10_000, logger: service.app.log }, async ({ err }) => {
      if (err) service.app.log.error({ err }, 'stopping after an uncaught error')
      await service.close()
    })
  }
  return { ...service, url }
}
