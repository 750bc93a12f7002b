/**
 * Public CORS (docs/spec.md §5, docs/contract.md "CORS") and the headers every response carries, per path: the
 * API allows GET/HEAD and exposes its own headers; a mount (MCP) allows its own methods and headers.
 * The policies are constant, so their header values are built once at start. Written here rather
 * than with @fastify/cors because that plugin re-evaluates a per-path policy on every request (4 %
 * of CPU under load) and cannot serve the same headers to the fast path in front of the framework.
 */
export type CorsPolicy = {
  /** Methods a preflight allows (OPTIONS is always added). */
  methods: readonly string[]
  /** Request headers a preflight allows, besides the CORS-safelisted ones. */
  requestHeaders: readonly string[]
  /** Response headers a browser script may read. */
  responseHeaders: readonly string[]
  /** Content-Security-Policy of the path's answers; the strictest one by default (JSON needs nothing). */
  contentSecurityPolicy?: string
  /**
   * False for a path no page of another origin may read (/metrics): its answers carry no
   * `Access-Control-*` field, so a browser inside an allowed network keeps them from any script.
   */
  crossOrigin?: false
}

/** What a JSON answer needs: nothing to load, nothing to frame. */
const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400
/** The Cache-Control of a preflight's 204. */
export const PREFLIGHT_CACHE_CONTROL = `public, max-age=${PREFLIGHT_MAX_AGE_SECONDS}`

/** The headers of one path's policy, computed once. */
export type PreparedCors = {
  /** On every response of the path. */
  readonly response: Readonly<Record<string, string>>
  /** On a preflight's 204, in addition. */
  readonly preflight: Readonly<Record<string, string>>
}

export function prepareCors(policy: CorsPolicy): PreparedCors {
  if (policy.crossOrigin === false)
    return {
      response: {
        'x-content-type-options': 'nosniff',
        'content-security-policy': policy.contentSecurityPolicy ?? JSON_CONTENT_SECURITY_POLICY,
      },
      preflight: {},
    }
  return {
    response: {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': policy.responseHeaders.join(', '),
      'x-content-type-options': 'nosniff',
      'content-security-policy': policy.contentSecurityPolicy ?? JSON_CONTENT_SECURITY_POLICY,
    },
    preflight: {
      'access-control-allow-methods': [...new Set([...policy.methods, 'OPTIONS'])].join(', '),
      'access-control-allow-headers': policy.requestHeaders.join(', '),
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  }
}

/** The policy of a request target, as the route table reads it (route-table.ts). */
export type CorsTable = { policyFor(target: string): PreparedCors }
