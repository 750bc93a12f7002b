/**
 * The framework's one guard: it applies the request's admission (admission.ts) before routing, and
 * decides nothing itself. The path's CORS and security fields, the request id and the quota's fields
 * go on every answer (errors included, so a browser can read any refusal); a preflight is answered
 * 204; a refusal is thrown, to be answered in the error body of the route it hit; the live-read
 * redirect is sent. Every request reaches the framework through the front door, which admitted it.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { admissionOf, type Admission } from './admission.js'
import { PREFLIGHT_CACHE_CONTROL } from './cors.js'
import { sendAnswer } from './conditional.js'
import { admittedFields } from './respond.js'

export function registerAdmission(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const apply = (admission: Admission): void => {
      void reply.headers(admission.cors.response)
      const outcome = admission.outcome
      if (outcome?.kind === 'preflight') return void sendPreflight(reply, admission)
      void reply.headers(admittedFields(admission))
      if (outcome === undefined) return done()
      if (outcome.kind === 'refusal') return done(outcome.error)
      void sendAnswer(reply, outcome.answer)
    }
    apply(admissionOf(req.raw)!)
  })
}

function sendPreflight(reply: FastifyReply, admission: Admission): void {
  void reply
    .code(204)
    .headers(admission.cors.preflight)
    .header('cache-control', PREFLIGHT_CACHE_CONTROL)
    .send()
}
