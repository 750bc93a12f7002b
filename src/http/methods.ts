/**
 * 405 for every method a path does not take (docs/contract.md "Methods"): GET, HEAD and OPTIONS on the
 * API, the pages and the operational endpoints (a mount's are decided by the admission). The refusal happens in
 * onRequest, before any body is read or parsed, so a POST with an odd content type is still a 405
 * and not a 415.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { MethodRefusal } from './error-handler.js'

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const

/**
 * The paths whose other methods are refused, as admission asks (admission.ts: a refused request is
 * not counted): filled by `refuseOtherMethods` as it registers the refusals, so the two cannot differ.
 */
class MethodRefusals {
  readonly #entries: { pattern: RegExp; allowed: readonly string[] }[] = []
  /**
   * Methods every path allows (GET, HEAD, OPTIONS): almost every request has one, and `refuses` then
   * answers without testing the paths' patterns (it runs on every counted request).
   */
  #allowedEverywhere: ReadonlySet<string> | undefined

  add(url: string, allowed: readonly string[]): void {
    this.#allowedEverywhere = new Set(
      this.#allowedEverywhere === undefined
        ? allowed
        : allowed.filter((m) => this.#allowedEverywhere!.has(m)),
    )
    // A route's `:param` is one segment, as the router reads it: an empty one too (find-my-way routes
    // `/fiches/` to `/fiches/:id`), or its 405 would be counted (test/unit/target-reading.test.ts).
    const pattern = new RegExp(
      `^${url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}$`,
    )
    this.#entries.push({ pattern, allowed })
  }

  refuses(method: string, path: string): boolean {
    if (this.#allowedEverywhere?.has(method) === true) return false
    // A path the router cannot decode is its 400 (FST_ERR_BAD_URL) before any 405: counted as such.
    if (!decodable(path)) return false
    for (const entry of this.#entries) if (entry.pattern.test(path)) return !entry.allowed.includes(method)
    return false
  }
}

function decodable(path: string): boolean {
  try {
    decodeURI(path)
    return true
  } catch {
    return false
  }
}

export function refuseOtherMethods(app: FastifyInstance, urls: readonly string[]): void {
  const allow = READ_METHODS.join(', ')
  const refused = app.supportedMethods.filter(
    (m) => !(READ_METHODS as readonly string[]).includes(m),
  ) as HTTPMethods[]
  for (const url of urls) {
    methodRefusals(app).add(url, READ_METHODS)
    app.route({
      method: refused,
      url,
      config: { refusesMethod: true },
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
