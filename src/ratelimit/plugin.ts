/**
 * Counts every request to the API and the MCP endpoint in the client's quota, before anything else
 * can answer it (CORS headers are already set, so a browser can read a 429). Operational endpoints
 * and CORS preflights are not counted (CONTRACT.md "Quota").
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ApiError } from '../errors.js'
import { isUnderPath } from '../http/query.js'
import type { Metrics } from '../metrics.js'
import { clientKey } from './client-key.js'
import type { Quota } from './quota.js'
import type { Decision } from './store.js'

/** Counts requests whose target is under one of `countedRoots` (the API root and the MCP endpoint). */
export function registerQuota(
  app: FastifyInstance,
  quota: Quota,
  metrics: Pick<Metrics, 'quotaRefused'>,
  countedRoots: readonly string[],
): void {
  const isCounted = (url: string) => {
    for (const root of countedRoots) if (isUnderPath(url, root)) return true // a loop: no closure per request
    return false
  }
  const apply = (reply: FastifyReply, decision: Decision): ApiError | undefined => {
    reply.header('ratelimit-policy', quota.policyHeader).header('ratelimit', quota.rateLimitHeader(decision))
    if (decision.allowed) return undefined
    metrics.quotaRefused.inc()
    return new ApiError('rate_limited', quota.refusal(decision), { headers: { 'retry-after': String(decision.resetSeconds) } })
  }
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'OPTIONS' || !isCounted(req.url)) return done()
    const decision = quota.take(clientKey(req.ip))
    // The memory store answers synchronously: no promise on the hot path.
    if (!(decision instanceof Promise)) return done(apply(reply, decision))
    decision.then((d) => done(apply(reply, d)), done)
  })
}
