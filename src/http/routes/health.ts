/** Operational endpoints, outside the API root and outside the quota (CONTRACT.md "Addresses"). */
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../errors.js'
import type { Metrics } from '../../metrics.js'
import type { LiveRecords } from '../../records/live-records.js'

export function healthRoutes(app: FastifyInstance, records: LiveRecords, metrics: Metrics): void {
  // Liveness: the event loop answers. Never depends on records or on Redis, so a restart is not triggered by them.
  app.get('/healthz', (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }))

  // Readiness: a snapshot is loaded, so a load balancer only sends traffic to a replica that can answer.
  app.get('/readyz', (_req, reply) => {
    const index = records.current
    if (index === undefined) {
      throw new ApiError('unavailable', 'No record snapshot is loaded yet', { headers: { 'retry-after': '5' } })
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ready', records: index.size, version: index.version, published_at: index.publishedAt })
  })

  app.get('/metrics', async (_req, reply) => {
    const body = await metrics.registry.metrics()
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(body)
  })
}
