/**
 * Counts every request to a counted address (the API root and the MCP endpoint) in the client's
 * quota, before anything else can answer it (CORS headers are already set, so a browser can read a
 * 429). Operational endpoints and CORS preflights are not counted (docs/contract.md "Quota").
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ApiError } from '../core/errors.js'
import { clientKey } from '../core/quota/client-key.js'
import type { Quota } from '../core/quota/quota.js'
import type { Decision } from '../core/quota/store.js'
import { isUnderPath } from './query.js'
import { rateLimitFields } from './rate-limit-fields.js'

/** Counts requests whose target is under one of `countedRoots`; `onRefused` is told of every 429. */
export function registerQuotaGuard(app: FastifyInstance, quota: Quota, countedRoots: readonly string[], onRefused: () => void): void {
  const fields = rateLimitFields(quota)
  const isCounted = (url: string) => {
    for (const root of countedRoots) if (isUnderPath(url, root)) return true // a loop: no closure per request
    return false
  }
  const apply = (reply: FastifyReply, decision: Decision): ApiError | undefined => {
    reply.header('ratelimit-policy', fields.policy).header('ratelimit', fields.remaining(decision))
    if (decision.allowed) return undefined
    onRefused()
    return quota.refusal(decision)
  }
  app.addHook('onRequest', (req, reply, done) => {
    // A method the path does not take is refused (405) before it is counted: nothing was served.
    if (req.method === 'OPTIONS' || req.routeOptions.config.refusesMethod === true || !isCounted(req.url)) return done()
    const decision = quota.take(clientKey(req.ip))
    // The memory store answers synchronously: no promise on the hot path.
    if (!(decision instanceof Promise)) return done(apply(reply, decision))
    decision.then((d) => done(apply(reply, d)), done)
  })
}
