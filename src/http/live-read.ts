/**
 * The po_live redirect (spec §4.1, CONTRACT.md "Live-read redirect"): a request without po_live is
 * sent to the same path and query with po_live=1. It reads nothing else, so it comes before any
 * parameter check. The Location is built from the request target and the configured public base
 * URL only, never from Host or X-Forwarded-Host, so it cannot be pointed at another site.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { mentionsPoLive, rawQuery } from './query.js'

/** The 307 may be cached: it depends on the request target alone. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=86400'

/** Location of the live read of `url` (a raw request target such as "/api/v1/facts?q=x"). */
export function liveReadLocation(url: string, publicBaseUrl: string | undefined): string {
  const query = rawQuery(url)
  const target = query === undefined ? `${url}?po_live=1` : query === '' ? `${url}po_live=1` : `${url}&po_live=1`
  return publicBaseUrl === undefined ? target : publicBaseUrl + target
}

/**
 * Sends the 307 and returns true when the request is not yet a live read. Its body names the live
 * address too, so a client that does not follow redirects (`curl URL | jq`) still sees where to go.
 */
export function redirectToLiveRead(req: FastifyRequest, reply: FastifyReply, publicBaseUrl: string | undefined): boolean {
  if (mentionsPoLive(rawQuery(req.url))) return false
  const location = liveReadLocation(req.url, publicBaseUrl)
  void reply
    .code(307)
    .header('location', location)
    .header('cache-control', REDIRECT_CACHE_CONTROL)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ location }))
  return true
}
