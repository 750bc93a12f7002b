/**
 * The framework's one guard: it applies the request's admission (admission.ts) before routing, and
 * decides nothing itself. The path's CORS and security fields, the request id and the quota's fields
 * go on every answer (errors included, so a browser can read any refusal); a preflight is answered
 * 204; a refusal is thrown, to be answered in the error body of the route it hit; the live-read
 * redirect is sent. A request injected in tests (`app.inject`, which bypasses the front door) is
 * admitted here by the same function.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { admissionOf, type Admission, type Admit } from './admission.js'
import { PREFLIGHT_CACHE_CONTROL } from './cors.js'
import { sendAnswer } from './conditional.js'
import { fragmentRefusal, holdsFragment, normaliseTarget } from './target.js'

export function registerAdmission(app: FastifyInstance, admit: Admit): void {
  app.addHook('onRequest', (req, reply, done) => {
    const apply = (admission: Admission): void => {
      void reply.headers(admission.cors.response)
      const outcome = admission.outcome
      if (outcome?.kind === 'preflight') return void sendPreflight(reply, admission)
      void reply.header('x-request-id', admission.id)
      if (admission.quota !== undefined)
        void reply
          .header('ratelimit-policy', admission.quota.policy)
          .header('ratelimit', admission.quota.remaining)
      if (outcome === undefined) return done()
      if (outcome.kind === 'refusal') return done(outcome.error)
      void sendAnswer(reply, outcome.answer)
    }
    const kept = admissionOf(req.raw)
    if (kept !== undefined) return apply(kept)
    const admitted = holdsFragment(req.url)
      ? admit.unreadable(req.raw, fragmentRefusal())
      : admit(req.raw, normaliseTarget(req.url) ?? { path: '/', query: undefined, url: '/' })
    if (admitted instanceof Promise) admitted.then(apply, done)
    else apply(admitted)
  })
}

function sendPreflight(reply: FastifyReply, admission: Admission): void {
  void reply
    .code(204)
    .headers(admission.cors.preflight)
    .header('cache-control', PREFLIGHT_CACHE_CONTROL)
    .send()
}
