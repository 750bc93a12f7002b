/**
 * What every request goes through before its route, in this order: CORS headers (so a browser can
 * read any refusal), the request id, the drain check, the quota, the URL length. Each may answer
 * the request with the contract's error body.
 */
import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.js'
import { MCP_PATH, MCP_REQUEST_HEADERS } from '../mcp/http.js'
import type { Metrics } from '../metrics.js'
import { registerQuota } from '../ratelimit/plugin.js'
import type { Quota } from '../ratelimit/quota.js'
import { API_PREFIX } from './schemas.js'

/** Longest request target accepted. A legitimate one is far shorter (q is at most 300 characters, ~3.6 KB encoded). */
export const MAX_URL_LENGTH = 8_192

// One static policy for the whole origin: a per-path delegator made @fastify/cors re-normalise its
// options on every request (4 % of CPU under load). Preflights therefore also allow POST and DELETE,
// which /mcp takes; the read-only API still answers them 405, readable by the browser.
const CORS_POLICY = {
  origin: '*',
  methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'Accept', 'If-None-Match', 'X-Request-Id', ...MCP_REQUEST_HEADERS],
  exposedHeaders: ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Mcp-Session-Id', 'Mcp-Protocol-Version'],
  maxAge: 86_400,
  strictPreflight: false,
}

export async function registerRequestGuards(app: FastifyInstance, quota: Quota | undefined, metrics: Metrics): Promise<void> {
  await app.register(cors, CORS_POLICY)
  let draining = false
  app.addHook('preClose', (done) => {
    draining = true
    done()
  })
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id)
    if (!draining) return done()
    // Shutting down: tell the client (or load balancer) to go elsewhere, and close this connection.
    reply.header('connection', 'close')
    done(new ApiError('unavailable', 'The server is shutting down; retry shortly', { headers: { 'retry-after': '1' } }))
  })
  // Every request to the API and to MCP counts (CONTRACT.md "Quota"); operational endpoints do not.
  if (quota !== undefined) registerQuota(app, quota, metrics, [API_PREFIX, MCP_PATH])
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.url.length <= MAX_URL_LENGTH) return done()
    done(new ApiError('invalid_parameter', `Request URL is ${req.url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`, { status: 414 }))
  })
}
