/**
 * What the server knows about each connection, for three guarantees Node's HTTP server does not give
 * by itself:
 * - **one response per request**: a parser error in a request's body (a malformed chunk after a
 *   GET) is not answered with a second, unsolicited response on the same connection — that would
 *   desynchronise answers behind a proxy that reuses connections; an error in a new request's head
 *   is answered only after the responses before it, in order;
 * - **bounded memory per connection**: a client that pipelines requests without reading the answers
 *   is not served further while this process still holds unsent bytes for it (its requests wait and
 *   the socket stops being read); a connection making no progress is closed after `stallMs`
 *   (watched here, once a second for every connection, rather than by a timer per request);
 * - **a clean drain**: on shutdown, new requests on open connections get 503 + `Connection: close`,
 *   idle connections (slow clients in the middle of their headers included) are closed after a short
 *   grace, requests in flight finish, and everything is closed by a bound.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import { pausedByNode } from './node-internals.js'

/** Unsent bytes held for one connection before its next request waits (a 50-record page is ~75 KB). */
const MAX_UNSENT_BYTES = 128 * 1024
/**
 * Pipelined requests of one connection served at once; the next ones wait for their turn. Browsers
 * and proxies do not pipeline: this only bounds what one client can make the process hold.
 */
const MAX_PIPELINED = 2
/**
 * Requests of one connection waiting their turn, at most. Node parses a whole read (up to 64 KiB)
 * of pipelined requests at once, ~1.5 KB of objects each; a client with this many unanswered
 * requests is not reading, and its connection is closed rather than held.
 */
const MAX_WAITING = 32

type ConnectionState = {
  /** Requests received whose response has not finished (waiting ones included). */
  inFlight: number
  /** Their responses, oldest first: the first is the one Node is sending (or will send next). */
  responses: ServerResponse[]
  /** Requests being served: handed to a handler, response not finished. */
  serving: number
  /** The last request received: a parser error while it is incomplete is an error in its body. */
  last: IncomingMessage | undefined
  /** Requests waiting for the connection's unsent bytes to go out. */
  waiting: Waiting[]
  /** Our 'drain' listener while requests wait (Node's own listener on the socket must stay). */
  onDrain: (() => void) | undefined
  /** Called when no response is in flight any more (to answer or close after them). */
  whenIdle: (() => void)[]
  /** The parser failed: nothing more is read or served on this connection. */
  failed: boolean
  /** Bytes read and written when the stall watch last saw them move, and when (ms, Date.now). */
  moved: number
  movedAt: number
  /** Requests received so far: a connection that has had none is watched until its first. */
  received: number
}

/** How long the responses in flight may take to finish once the parser failed on their connection. */
const PARSER_FAILURE_GRACE_MS = 1_000

const STATE = Symbol('reference-records.connection')
type TrackedSocket = Socket & { [STATE]?: ConnectionState }

/** Serves one scheduled request; the same function for every request (no closure per request). */
export type Serve = (req: IncomingMessage, res: ServerResponse) => void
type Waiting = { req: IncomingMessage; res: ServerResponse; serve: Serve }

/** What a response's 'close' listener needs, kept on the response rather than in a closure per request. */
const TRACK = Symbol('reference-records.response')
type TrackedResponse = ServerResponse & {
  [TRACK]?: { connections: Connections; socket: TrackedSocket; state: ConnectionState; served: boolean }
}

function onResponseClose(this: TrackedResponse): void {
  const track = this[TRACK]!
  const { state } = track
  state.inFlight--
  const at = state.responses.indexOf(this)
  if (at !== -1) state.responses.splice(at, 1)
  if (track.served) state.serving--
  if (state.inFlight === 0) for (const then of state.whenIdle.splice(0)) then()
  else track.connections.pump(track.socket, state)
}

export type DrainOptions = {
  /** How long idle connections stay open for a request already on its way, in ms. */
  graceMs: number
  /** When every remaining connection is closed, in ms after the drain starts. */
  boundMs: number
}

/** Most time between two looks of the stall watch, in ms (a stall is seen within stallMs plus this). */
const STALL_CHECK_MS = 1_000

export class Connections {
  readonly #sockets = new Set<TrackedSocket>()
  #draining = false

  /**
   * `stallMs`: a connection where nothing moves for that long while it has something to do is closed
   * (see #watchStalls); none when absent.
   */
  constructor(
    private readonly server: Server,
    stallMs?: number,
  ) {
    server.on('connection', (socket: TrackedSocket) => {
      socket[STATE] = {
        inFlight: 0,
        responses: [],
        serving: 0,
        last: undefined,
        waiting: [],
        onDrain: undefined,
        whenIdle: [],
        failed: false,
        moved: 0,
        movedAt: Date.now(),
        received: 0,
      }
      this.#sockets.add(socket)
      socket.once('close', () => this.#sockets.delete(socket))
    })
    if (stallMs !== undefined) this.#watchStalls(stallMs)
  }

  /**
   * Closes connections where nothing moved (no byte read or written) for `stallMs` while they had
   * something to do: a response in flight or unsent bytes (a client that stopped reading its
   * answers, or sending its body), or no request yet. An idle keep-alive connection is Node's to
   * close (keepAliveTimeout). Why not `server.setTimeout(stallMs)`: Node then re-arms a timer on the
   * socket at every request, then again for keep-alive at its end, a share of every answer's cost
   * (bench/profile-pair.ts); a look every second at each connection costs nothing per request, the
   * way Node itself checks headersTimeout and requestTimeout.
   */
  #watchStalls(stallMs: number): void {
    const look = () => {
      const now = Date.now()
      for (const socket of this.#sockets) {
        const state = socket[STATE]!
        const moved = socket.bytesRead + socket.bytesWritten
        const busy = state.inFlight > 0 || socket.writableLength > 0 || state.received === 0
        if (moved !== state.moved || !busy) {
          state.moved = moved
          state.movedAt = now
        } else if (now - state.movedAt >= stallMs) socket.destroy()
      }
    }
    const timer = setInterval(look, Math.min(STALL_CHECK_MS, Math.max(10, stallMs / 4))).unref()
    this.server.once('close', () => clearInterval(timer))
  }

  /** True once a drain started: new requests are refused with 503. */
  get draining(): boolean {
    return this.#draining
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#sockets.size
  }

  /**
   * Registers a request and runs `serve` now, or once the connection's earlier answers went out
   * (a client that does not read its answers gets no more until it does).
   */
  schedule(req: IncomingMessage, res: ServerResponse, serve: Serve): void {
    const socket = req.socket as TrackedSocket
    // Every socket came through the server's connection event (test/support/in-process.ts too).
    const state = socket[STATE]!
    state.inFlight++
    state.received++
    state.responses.push(res)
    state.last = req
    const track = { connections: this, socket, state, served: false }
    ;(res as TrackedResponse)[TRACK] = track
    res.on('close', onResponseClose) // emitted once; `on` saves `once`'s wrapper per request
    // The common case: nothing waits and the connection keeps up, so the request is served now.
    if (
      state.waiting.length === 0 &&
      state.serving < MAX_PIPELINED &&
      socket.writableLength <= MAX_UNSENT_BYTES
    ) {
      track.served = true
      state.serving++
      serve(req, res)
      if (state.onDrain !== undefined) this.pump(socket, state)
      return
    }
    if (state.waiting.length >= MAX_WAITING) return void socket.destroy()
    state.waiting.push({ req, res, serve })
    this.pump(socket, state)
  }

  /** Serves waiting requests in order while the connection keeps up; stops reading it while they wait. */
  pump(socket: TrackedSocket, state: ConnectionState): void {
    while (
      state.waiting.length > 0 &&
      state.serving < MAX_PIPELINED &&
      socket.writableLength <= MAX_UNSENT_BYTES
    ) {
      const { req, res, serve } = state.waiting.shift()!
      if (res.destroyed) continue // the client left while its request waited
      ;(res as TrackedResponse)[TRACK]!.served = true
      state.serving++
      serve(req, res)
    }
    if (state.waiting.length > 0) {
      // More requests from this client would only pile up behind the unsent bytes.
      socket.pause()
      if (state.onDrain === undefined) {
        state.onDrain = () => this.pump(socket, state)
        socket.on('drain', state.onDrain)
      }
      return
    }
    if (state.onDrain === undefined) return
    socket.off('drain', state.onDrain)
    state.onDrain = undefined
    // Node pauses a connection itself when pipelined answers queue up: leave that to it (node-internals.ts).
    if (!state.failed && !pausedByNode(socket)) socket.resume()
  }

  /**
   * Runs `then` once every response in flight on `socket` is out (at once when none is): what
   * answers a request Node hands over outside the HTTP parser (CONNECT) must come after the answers
   * to the requests pipelined before it, never instead of them.
   */
  afterResponses(socket: Socket, then: () => void): void {
    const state = (socket as TrackedSocket)[STATE]
    if (state === undefined || state.inFlight === 0) return then()
    state.whenIdle.push(then)
  }

  /**
   * The response Node is sending on `socket`, if any: the one it attached the socket to (the public
   * `response.socket`, null while a response waits behind another). Tracked here rather than read
   * from Node's own (undocumented) record of it.
   */
  sending(socket: Socket): ServerResponse | undefined {
    return (socket as TrackedSocket)[STATE]?.responses.find((res) => res.socket === socket)
  }

  /** Whether nothing is in flight on `socket` (no request received and unanswered). */
  idle(socket: Socket): boolean {
    const state = (socket as TrackedSocket)[STATE]
    return state !== undefined && !state.failed && state.inFlight === 0
  }

  /**
   * The HTTP parser failed on `socket`. An error in the body of a request already received ends the
   * connection once that request's response is out; an error in a new request's head gets `answer`
   * (the contract's error body), after the responses before it.
   */
  parserFailed(socket: Socket, answer: () => Buffer): void {
    const state = (socket as TrackedSocket)[STATE]
    if (state === undefined || state.failed) return void socket.destroy()
    state.failed = true
    // The last request received is incomplete: the parser failed in its body, and it has its answer.
    const inBody = state.last !== undefined && !state.last.complete
    if (inBody) failBody(state.last!)
    const finish = () => {
      if (inBody || !socket.writable) socket.destroy()
      else socket.end(answer())
    }
    if (state.inFlight === 0) return finish()
    state.whenIdle.push(finish)
    // A handler that never reads the broken body would wait for it for ever: the responses in flight
    // get a moment to finish, then the connection is closed.
    setTimeout(() => socket.destroy(), PARSER_FAILURE_GRACE_MS).unref()
  }

  /**
   * Stops accepting connections and closes the open ones: idle ones after `graceMs`, busy ones once
   * their responses are out (they carry `Connection: close`), whatever is left at `boundMs`.
   */
  async drain({ graceMs, boundMs }: DrainOptions): Promise<void> {
    this.#draining = true
    // net.Server#close, not http.Server#close: the latter also closes idle keep-alive connections at
    // once, which resets a request already on its way instead of answering it 503.
    NetServer.prototype.close.call(this.server)
    // Every response not yet begun closes its connection after it.
    for (const socket of this.#sockets)
      for (const res of socket[STATE]!.responses) if (!res.headersSent) res.setHeader('connection', 'close')
    const started = Date.now()
    while (this.#sockets.size > 0) {
      const elapsed = Date.now() - started
      if (elapsed >= boundMs) {
        for (const socket of this.#sockets) socket.destroy()
        break
      }
      if (elapsed >= graceMs)
        for (const socket of this.#sockets) if (socket[STATE]!.inFlight === 0) socket.destroy()
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, graceMs)))
    }
  }
}

/**
 * Ends the read of a body the parser failed in with an error, so that its handler answers it (the
 * MCP endpoint's 400) instead of waiting for an end that never comes, and the connection closing
 * after the grace leaving the request without an answer (issue 32). Node emits nothing on the
 * request itself; its handler may not be reading yet (it starts once scheduled, admitted and routed): then the
 * error comes as soon as the handler listens for one.
 */
function failBody(req: IncomingMessage): void {
  const fail = (): void =>
    void req.emit(
      'error',
      Object.assign(new Error('The request body is malformed'), { code: 'ERR_MALFORMED_BODY' }),
    )
  if (req.listenerCount('error') > 0) return fail()
  const onListener = (event: string | symbol) => {
    if (event !== 'error') return
    req.off('newListener', onListener)
    process.nextTick(fail) // once the listener is in place: 'newListener' comes just before
  }
  req.on('newListener', onListener)
}
