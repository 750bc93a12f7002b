/**
 * The po_live redirect (docs/spec.md §4.1, docs/contract.md "Live-read redirect"): a request without po_live is
 * sent to the same path and query with po_live=1. It reads nothing else, so it comes before any
 * parameter check. The Location is built from the request target and the configured public base
 * URL only, never from Host or X-Forwarded-Host, so it cannot be pointed at another site.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { redirectAnswer } from './api-answers.js'
import { sendAnswer } from './conditional.js'
import { mentionsPoLive, rawQuery } from './query.js'

/** Sends the 307 and returns true when the request is not yet a live read. */
export function redirectToLiveRead(req: FastifyRequest, reply: FastifyReply, publicBaseUrl: string | undefined): boolean {
  if (mentionsPoLive(rawQuery(req.url))) return false
  void sendAnswer(reply, redirectAnswer(req.url, publicBaseUrl))
  return true
}
