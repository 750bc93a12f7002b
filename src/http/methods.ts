/**
 * 405 for every method but GET, HEAD and OPTIONS on the service's own paths (CONTRACT.md "Methods").
 * The refusal happens in onRequest, before any body is read or parsed, so a POST with an odd
 * content type is still a 405 and not a 415.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ApiError } from '../errors.js'

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'
const SERVED = new Set(['GET', 'HEAD', 'OPTIONS'])

export function refuseOtherMethods(app: FastifyInstance, urls: readonly string[]): void {
  const refused = app.supportedMethods.filter((m) => !SERVED.has(m)) as HTTPMethods[]
  for (const url of urls) {
    app.route({
      method: refused,
      url,
      onRequest: async (req) => {
        throw new ApiError('method_not_allowed', `Method ${req.method} is not allowed on ${url}; the API is read-only (${ALLOWED_METHODS})`, {
          headers: { allow: ALLOWED_METHODS },
        })
      },
      handler: async () => undefined, // never reached: onRequest always refuses
    })
  }
}
