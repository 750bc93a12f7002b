/**
 * The Node HTTP server under the framework (Fastify's `serverFactory`): its timeouts, the front door
 * as request listener, connection tracking, and answers for what Node would otherwise answer bare
 * (an unmet `Expect`, `CONNECT`) or not at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import { UNMATCHED_ROUTE, errorAnswer, rawAnswer, writeRefusal } from './respond.js'
import { Connections } from './connections.js'
import type { CorsTable } from './cors.js'
import { frontDoor, normaliseTarget, type FrontDoorOptions, type RequestListener } from './front-door.js'
import { HttpRefusal, MethodRefusal } from './status.js'

/**
 * Bounds on slow, idle or stalled clients. Node checks the first two only every `checkEveryMs`
 * (30 s by default, which would let a slow client hold a socket for up to 40 s).
 */
export const DEFAULT_TIMEOUTS = {
  /** A client must send its whole request head within this. */
  headersMs: 10_000,
  /** … and its whole request within this. */
  requestMs: 15_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: 5_000,
  /** A connection where nothing moves (a client not reading its answers) is closed after this. */
  stallMs: 30_000,
  checkEveryMs: 1_000,
}
export type Timeouts = typeof DEFAULT_TIMEOUTS

export type HttpServerParts = {
  /** The server, once the framework has asked for it. */
  server(): Server
  connections(): Connections
  /** For Fastify's `serverFactory` option. */
  factory(handler: RequestListener): Server
}

export function httpServerParts(
  options: Omit<FrontDoorOptions, 'connections'> & { cors: CorsTable; timeouts: Timeouts },
): HttpServerParts {
  const timeouts = options.timeouts
  let server: Server | undefined
  let connections: Connections | undefined
  const parts: HttpServerParts = {
    server: () => server!,
    connections: () => connections!,
    factory(handler) {
      server = createServer({
        // Answered by the front door with the error body, not by Node with a bare 400.
        requireHostHeader: false,
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.checkEveryMs,
      })
      // An idle keep-alive connection timed out (keepAliveTimeout): close it. Listening here means
      // Node leaves the decision to us. A stalled one is the connections' watch to close (stallMs).
      server.on('timeout', (socket: Socket) => socket.destroy())
      connections = new Connections(server, timeouts.stallMs)
      server.on('request', frontDoor({ ...options, connections }, handler))
      server.on('checkExpectation', (req: IncomingMessage, res) => {
        connections!.schedule(req, res, () => {
          const path = normaliseTarget(req.url ?? '')?.path ?? '/'
          const id = options.requestId(req)
          options.completions.whenFinished(req, res, options.completions.routeOfPath(path), id)
          const err = new HttpRefusal(
            417,
            `Expectation "${String(req.headers.expect).slice(0, 60)}" is not supported (only 100-continue is)`,
          )
          // No request for the renderer: the client sends no body until its expectation is met.
          writeRefusal(res, {
            error: err,
            cors: options.cors.policyFor(path),
            admitted: { id },
            render: options.errorBodyFor(path),
          })
        })
      })
      // Node answers `Expect: 100-continue` itself, at parse time; for a request pipelined behind
      // another, that interim answer lands inside the response it waits behind (Node buffers it, then
      // puts the response's head in front of it). So it is sent only by a request at the head of its
      // connection; one behind others gets none, which the client reads as "send the body anyway".
      server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
        // Node attaches a response to its socket only once the responses before it are out.
        if (res.socket !== null) res.writeContinue()
        server!.emit('request', req, res)
      })
      // CONNECT asks for a tunnel; without this listener Node drops the connection without a word.
      server.on('connect', (req: IncomingMessage, socket: Socket) => {
        const startedAt = performance.now()
        const refusal: ApiError = new MethodRefusal(
          'CONNECT',
          String(req.url).slice(0, 100),
          'GET, HEAD, OPTIONS',
        )
        // Node detaches its HTTP machinery from the socket here, including the relay of the socket's
        // 'drain' to the response being written: a streamed answer still in flight (the NDJSON
        // download) would stall for good once the socket's buffer fills. Relay it ourselves until
        // those answers are out.
        const relayDrain = () => connections!.sending(socket)?.emit('drain')
        socket.on('drain', relayDrain)
        connections!.afterResponses(socket, () => {
          socket.off('drain', relayDrain)
          if (!socket.writable) return
          socket.end(rawAnswer(errorAnswer(refusal, options.cors.policyFor(API_PREFIX))))
          options.completions.raw(req.method, UNMATCHED_ROUTE, 405, startedAt)
        })
      })
      return server
    },
  }
  return parts
}
