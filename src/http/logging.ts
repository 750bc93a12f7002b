/**
 * Structured JSON logs (pino, through Fastify) with a request id on every line. A client's address is
 * never written in clear: it is replaced by a keyed hash, enough to follow one client without
 * keeping a personal datum in the logs.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { pino, type Logger, type LoggerOptions } from 'pino'

/** A short keyed hash of an address (HMAC-SHA-256, 12 hex digits). */
export function hashClient(address: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 12)
}

export function loggerOptions(level: string, hashKey: string | undefined): LoggerOptions {
  const key = hashKey ?? randomBytes(32)
  return {
    level,
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: req.url, client: hashClient(req.ip ?? '', key) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }
}

/** The service's one logger: Fastify's request logs and the service's own events share it. */
export function createLogger(level: string, hashKey: string | undefined): Logger {
  return pino(loggerOptions(level, hashKey))
}

const ACCEPTED_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/

/** Keeps a caller's X-Request-Id when it is a sane token (to follow a request across services), else makes one. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID()
}
