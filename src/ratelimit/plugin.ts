/**
 * Counts every request to the API and the MCP endpoint in the client's quota, before anything else
 * can answer it (CORS headers are already set, so a browser can read a 429). Operational endpoints
 * and CORS preflights are not counted (CONTRACT.md "Quota").
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ApiError } from '../errors.js'
import type { Metrics } from '../metrics.js'
import { clientKey } from './client-key.js'
import type { Quota } from './quota.js'
import type { Decision } from './store.js'

/** Whether a request target is under /api/v1 or /mcp. */
export function isCounted(url: string): boolean {
  for (const root of ['/api/v1', '/mcp']) {
    if (url.startsWith(root) && (url.length === root.length || url[root.length] === '/' || url[root.length] === '?')) return true
  }
  return false
}

export function registerQuota(app: FastifyInstance, quota: Quota, metrics: Pick<Metrics, 'quotaRefused'>): void {
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
