/**
 * Conditional requests and the sending of a prepared answer through the framework (the fast path
 * sends the same Answer itself).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Conditions } from './api-answers.js'
import type { Answer } from './respond.js'

/** The request header fields an answer depends on. */
export function conditionsOf(req: FastifyRequest): Conditions {
  const acceptEncoding = req.headers['accept-encoding']
  return {
    ifNoneMatch: req.headers['if-none-match'],
    acceptEncoding: Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : acceptEncoding,
  }
}

export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  void reply.code(answer.status)
  const { flat } = answer.fields
  for (let i = 0; i < flat.length; i += 2) void reply.header(flat[i]!, flat[i + 1])
  return answer.body === undefined ? reply.send() : reply.send(answer.body)
}
