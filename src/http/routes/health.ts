/** Operational endpoints, outside the API root and outside the quota (docs/contract.md "Addresses"). */
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../core/errors.js'
import type { LiveRecords } from '../../core/snapshots/live-records.js'

/** The Prometheus exposition, rendered by whoever owns the metrics registry. */
export type MetricsExposition = () => Promise<{ contentType: string; body: string }>

/**
 * `mayReadMetrics` decides who reads /metrics: its figures (traffic, memory, which snapshot, Redis
 * state) are for the operator, so a client outside the allowed ones gets the same 404 as any unknown
 * path, which tells it nothing. /healthz and /readyz stay open: load balancers probe them.
 */
export function healthRoutes(
  app: FastifyInstance,
  records: LiveRecords,
  metrics: MetricsExposition,
  mayReadMetrics: (address: string) => boolean,
): void {
  // Liveness: the event loop answers. Never depends on records or on Redis, so a restart is not triggered by them.
  app.get('/healthz', (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }))

  // Readiness: a snapshot is loaded, so a load balancer only sends traffic to a replica that can answer.
  app.get('/readyz', (_req, reply) => {
    const index = records.current
    if (index === undefined)
      throw new ApiError('unavailable', 'No record snapshot is loaded yet', { retryAfterSeconds: 5 })
    return reply.header('cache-control', 'no-store').send({
      status: 'ready',
      records: index.size,
      version: index.version,
      published_at: index.publishedAt,
      // Which published snapshot (PostgreSQL), so an operator can see every replica serves the same one.
      ...(index.snapshot === undefined
        ? {}
        : { snapshot: index.snapshot.id, publication: index.snapshot.publication }),
    })
  })

  app.get('/metrics', async (req, reply) => {
    if (!mayReadMetrics(req.ip)) throw new ApiError('not_found', 'No such path: /metrics')
    const { contentType, body } = await metrics()
    return reply.type(contentType).header('cache-control', 'no-store').send(body)
  })
}
