/**
 * What every request goes through before its route, in this order: CORS and security headers (so a
 * browser can read any refusal), the request id, the quota, the URL length. Each may answer the
 * request with the error body of the route it hit. (Draining is refused earlier, by the front door.)
 */
import type { FastifyInstance } from 'fastify'
import type { Quota } from '../core/quota/quota.js'
import { registerCors, type CorsTable } from './cors.js'
import { registerQuotaGuard } from './quota-guard.js'
import { HttpRefusal } from './status.js'

/** Longest request target accepted. A legitimate one is far shorter (q is at most 300 characters, ~3.6 KB encoded). */
export const MAX_URL_LENGTH = 8_192
export type GuardOptions = {
  cors: CorsTable
  quota?: Quota
  /** Paths whose requests count in the quota (the API root, a counted mount). */
  countedRoots: readonly string[]
  onQuotaRefused: () => void
}

export function registerRequestGuards(app: FastifyInstance, options: GuardOptions): void {
  registerCors(app, options.cors)
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id)
    done()
  })
  // Every request to the API and to MCP counts (docs/contract.md "Quota"); operational endpoints do not.
  if (options.quota !== undefined) registerQuotaGuard(app, options.quota, options.countedRoots, options.onQuotaRefused)
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.url.length <= MAX_URL_LENGTH) return done()
    done(new HttpRefusal(414, `Request URL is ${req.url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`))
  })
}
