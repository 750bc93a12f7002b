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

/**
 * The paths whose other methods are refused, as admission asks (admission.ts: a refused request is
 * not counted): filled by `refuseOtherMethods` as it registers the refusals, so the two cannot differ.
 */
class MethodRefusals {
  readonly #entries: { pattern: RegExp; allowed: readonly string[] }[] = []

  add(url: string, allowed: readonly string[]): void {
    // A route's `:param` is one segment, as the router reads it.
    const pattern = new RegExp(
      `^${url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}$`,
    )
    this.#entries.push({ pattern, allowed })
  }

  refuses(method: string, path: string): boolean {
    for (const entry of this.#entries) if (entry.pattern.test(path)) return !entry.allowed.includes(method)
    return false
  }
}

export function refuseOtherMethods(
  app: FastifyInstance,
  urls: readonly string[],
  options: { allow?: readonly string[]; errorBody?: ErrorBodyRenderer } = {},
): void {
  const allowed = options.allow ?? READ_METHODS
  const allow = allowed.join(', ')
  const refused = app.supportedMethods.filter((m) => !allowed.includes(m)) as HTTPMethods[]
  for (const url of urls) {
    methodRefusals(app).add(url, allowed)
    app.route({
      method: refused,
      url,
      config: {
        refusesMethod: true,
        ...(options.errorBody === undefined ? {} : { errorBody: options.errorBody }),
      },
      onRequest: async (req) => {
        throw new MethodRefusal(req.method, url, allow)
      },
      handler: async () => undefined, // never reached: onRequest always refuses
    })
  }
}

const byApp = new WeakMap<FastifyInstance, MethodRefusals>()

/** The refusals registered on `app` so far, and those registered later. */
export function methodRefusals(app: FastifyInstance): {
  refuses(method: string, path: string): boolean
  add(url: string, allowed: readonly string[]): void
} {
  let refusals = byApp.get(app)
  if (refusals === undefined) byApp.set(app, (refusals = new MethodRefusals()))
  return refusals
}
