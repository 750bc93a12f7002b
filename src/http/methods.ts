/**
 * 405 for every method but GET, HEAD and OPTIONS on the service's own paths (CONTRACT.md "Methods").
 * The refusal happens in onRequest, before any body is read or parsed, so a POST with an odd
 * content type is still a 405 and not a 415.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ApiError } from '../errors.js'

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'
const SERVED = new Set(['GET', 'HEAD', 'OPTIONS'])

export function refuseOtherMethods(
  app: FastifyInstance,
  urls: readonly string[],
  options: { served?: readonly string[]; allow?: string } = {},
): void {
  const served = options.served === undefined ? SERVED : new Set(options.served)
  const allow = options.allow ?? ALLOWED_METHODS
  const refused = app.supportedMethods.filter((m) => !served.has(m)) as HTTPMethods[]
  for (const url of urls) {
    app.route({
      method: refused,
      url,
      onRequest: async (req) => {
        throw new ApiError('method_not_allowed', `Method ${req.method} is not allowed on ${url} (allowed: ${allow})`, {
          headers: { allow },
        })
      },
      handler: async () => undefined, // never reached: onRequest always refuses
    })
  }
}
