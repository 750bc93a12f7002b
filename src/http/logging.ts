/**
 * What the HTTP adapter writes in the logs about a request. A client's address is never written in
 * clear: it is replaced by a keyed hash, enough to follow one client without keeping a personal
 * datum in the logs.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Logger } from 'pino'

/** A short keyed hash of an address (HMAC-SHA-256, 12 hex digits). */
export function hashClient(address: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 12)
}

/** The service's logger with the request serialisers of this adapter (client address hashed). */
export function requestLogger(logger: Logger, hashKey: string | undefined): Logger {
  const key = hashKey ?? randomBytes(32)
  return logger.child(
    {},
    {
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: req.url, client: hashClient(req.ip ?? '', key) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  )
}

const ACCEPTED_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/

/** Keeps a caller's X-Request-Id when it is a sane token (to follow a request across services), else makes one. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID()
}
