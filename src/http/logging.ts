/**
 * What the HTTP adapter writes in the logs about a request. A client's address is never written in
 * clear: it is replaced by a keyed hash, enough to follow one client without keeping a personal
 * datum in the logs.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { Logger } from 'pino'

/** A short keyed hash of an address (HMAC-SHA-256, 12 hex digits). */
function hashClient(address: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 12)
}

/** Logs one request's completion: the request, its answer, how long it took. */
export type CompletionLog = (entry: {
  id: string
  method: string
  url: string
  address: string | undefined
  status: number
  /** How long the answer took, in ms. */
  ms: number
}) => void

/** Addresses hashed recently: an HMAC per request was a measurable share of the hot path, and clients repeat. */
const MAX_HASHED = 10_000

/**
 * One `request completed` line per request, at info, with what an operator needs: the request id,
 * method, target, the client's keyed hash, the status and the time taken. Undefined when info lines
 * are not written, so a caller skips even the bookkeeping. Every answer is reported through
 * completions.ts, which writes this line, so every request is one line of the same shape.
 */
export function completionLog(logger: Logger, hashKey: string | undefined): CompletionLog | undefined {
  if (!logger.isLevelEnabled('info')) return undefined
  const key = hashKey ?? randomBytes(32)
  const hashed = new Map<string, string>()
  const clientOf = (address: string | undefined) => {
    const a = address ?? ''
    let hash = hashed.get(a)
    if (hash === undefined) {
      if (hashed.size >= MAX_HASHED) hashed.clear()
      hashed.set(a, (hash = hashClient(a, key)))
    }
    return hash
  }
  return ({ id, method, url, address, status, ms }) =>
    logger.info(
      {
        reqId: id,
        req: { method, url, client: clientOf(address) },
        res: { statusCode: status },
        responseTime: Number(ms.toFixed(3)),
      },
      'request completed',
    )
}
