/**
 * Requests Node's HTTP parser refuses before any handler sees them: a malformed request line or
 * framing, raw control bytes, headers over 16 KiB, a client too slow to send its head. Each gets the
 * contract's error body with CORS (so even these failures are readable by a browser client) — once,
 * and in order: see Connections.parserFailed. A target carrying raw UTF-8 is read again encoded.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { API_PREFIX } from '../core/api/schemas.js'
import { UNMATCHED_ROUTE, errorAnswer, rawAnswer, type Completions } from './respond.js'
import type { Connections } from './connections.js'
import type { CorsTable } from './cors.js'
import { HttpRefusal } from './status.js'
import { encodeRawTarget, replayOnInjectedConnection } from './utf8-target.js'

// Fastify types rawPacket as a JSON-serialised Buffer; Node passes the Buffer itself.
type ParserError = Error & { code?: string; rawPacket?: unknown }

function refusalFor(err: ParserError): HttpRefusal {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpRefusal(431, 'Request line or headers too large (at most 16 KiB)')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpRefusal(408, 'Request not received in time')
    case 'HPE_INVALID_URL':
      return new HttpRefusal(
        400,
        'The request target is not a valid URL: percent-encode spaces, control characters and non-UTF-8 bytes ' +
          '(UTF-8, e.g. q=priorit%C3%A9), or let curl do it: curl -G --data-urlencode "q=priorité" …',
      )
    default:
      return new HttpRefusal(400, 'Malformed HTTP request')
  }
}

export function clientErrorHandler(
  server: () => Server,
  connections: () => Connections,
  cors: CorsTable,
  report: (fields: object, message: string) => void,
  completions: Completions,
) {
  const replaying = new WeakSet<Socket>()
  return (err: ParserError, socket: Socket): void => {
    if (replaying.has(socket)) return // the rest of this connection is being served through the replay
    // ECONNRESET and friends: the client is gone, nobody would read an answer.
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy()
    report({ code: err.code }, 'request refused by the HTTP parser')
    if (err.code === 'HPE_INVALID_URL' && Buffer.isBuffer(err.rawPacket) && connections().idle(socket)) {
      const encoded = encodeRawTarget(err.rawPacket)
      if (encoded !== undefined) {
        replaying.add(socket)
        return replayOnInjectedConnection(server(), socket, encoded)
      }
    }
    // The request could not be read, so no path is known: the API's headers (a JSON answer's); no
    // method either (the parser may have failed on it).
    const startedAt = performance.now()
    const answer = () => {
      const refusal = refusalFor(err)
      completions.raw(undefined, UNMATCHED_ROUTE, refusal.status, startedAt)
      return rawAnswer(errorAnswer(refusal, cors.policyFor(API_PREFIX)))
    }
    connections().parserFailed(socket, answer)
  }
}
