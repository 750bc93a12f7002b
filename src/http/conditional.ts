/**
 * Sends a pre-serialised JSON body with its strong ETag, or a 304 when the client already has it.
 * Live reads answer `Cache-Control: no-cache`: caches may keep them but must revalidate, which is a
 * cheap 304 thanks to the ETag.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'

const JSON_TYPE = 'application/json; charset=utf-8'

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison, and "*" matches any current representation. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque
  })
}

export function sendJson(req: FastifyRequest, reply: FastifyReply, body: string | Buffer, etag: string): FastifyReply {
  reply.header('etag', etag).header('cache-control', 'no-cache')
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return reply.code(304).send()
  return reply.type(JSON_TYPE).send(body)
}
