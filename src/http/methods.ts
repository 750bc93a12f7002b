/**
 * 405 for every method a path does not take (docs/contract.md "Methods"): GET, HEAD and OPTIONS on the
 * API and the operational endpoints, a mount's own methods on a mount. The refusal happens in
 * onRequest, before any body is read or parsed, so a POST with an odd content type is still a 405
 * and not a 415.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { ErrorBodyRenderer } from './error-handler.js'
import { MethodRefusal } from './error-handler.js'

export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const

export function refuseOtherMethods(
  app: FastifyInstance,
  urls: readonly string[],
  options: { allow?: readonly string[]; errorBody?: ErrorBodyRenderer } = {},
): void {
  const allowed = options.allow ?? READ_METHODS
  const allow = allowed.join(', ')
  const refused = app.supportedMethods.filter((m) => !allowed.includes(m)) as HTTPMethods[]
  for (const url of urls) {
    app.route({
      method: refused,
      url,
      config: { refusesMethod: true, ...(options.errorBody === undefined ? {} : { errorBody: options.errorBody }) },
      onRequest: async (req) => {
        throw new MethodRefusal(req.method, url, allow)
      },
      handler: async () => undefined, // never reached: onRequest always refuses
    })
  }
}
