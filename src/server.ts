/**
 * Composition root of the service: config → record source → snapshot → HTTP app → listen, plus
 * reloads and graceful shutdown. Kept free of argument parsing so tests can start a real server.
 */
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import { buildApp } from './http/app.js'
import { FileRecordSource } from './records/file-source.js'
import { followSource, loadInto } from './records/follow.js'
import { LiveRecords } from './records/live-records.js'
import type { RecordSource } from './records/source.js'

export type RunningServer = { app: FastifyInstance; records: LiveRecords; url: string; close(): Promise<void> }

/**
 * Starts the service. The first load must succeed (a bad file stops the start). Later changes of the
 * source are reloaded and swapped in whole; a bad update is logged and the good snapshot stays.
 */
export async function startServer(config: Config, options: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const source: RecordSource = new FileRecordSource(config.records.file)
  const records = new LiveRecords()
  const first = await loadInto(source, records)
  const app = await buildApp({ records, config })
  app.log.info({ origin: source.origin, records: first.size, version: first.version }, 'records loaded')

  const follower = followSource(source, records, app.log)

  await app.listen({ port: config.http.port, host: config.http.host })
  const close = async () => {
    follower.stop()
    await app.close() // stops accepting, lets in-flight requests finish
    await source.close()
  }
  if (options.handleSignals) {
    // SIGTERM/SIGINT: finish in-flight requests, then exit 0; give up after 10 s (exit 1) rather than hang.
    closeWithGrace({ delay: 10_000, logger: app.log }, async ({ err }) => {
      if (err) app.log.error({ err }, 'stopping after an uncaught error')
      await close()
    })
  }
  const address = app.server.address()
  const url = typeof address === 'object' && address !== null ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}` : String(address)
  return { app, records, url, close }
}
