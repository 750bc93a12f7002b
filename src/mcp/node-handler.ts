/**
 * MCP over Streamable HTTP as a plain Node `(req, res)` handler, stateless: every request gets a
 * fresh server instance, so no session affinity is needed behind a load balancer of replicas. It
 * knows no web framework; the composition root mounts it at MCP_PATH next to the HTTP API.
 *
 * The body is read once, bounded, and parsed once: the parsed value goes to the SDK, which would
 * otherwise read and parse it again for its era check and again to serve it. 2026-07-28 requests go
 * to the SDK's createMcpHandler; 2025-era requests (the `initialize` handshake and what follows) are
 * routed with the SDK's own isLegacyRequest to a stateless transport that answers in JSON — the
 * handler's built-in legacy leg answers with Server-Sent Events, which costs every client a stream
 * for one result.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server'
import type { ApiError } from '../core/errors.js'
import type { RecordReader } from '../core/api/reader.js'
import { ToolCallCache, cacheableCall, type RawReply } from './call-cache.js'
import type { Fact } from '../core/records/record.js'
import { paramsShapeProblem } from './params-guard.js'
import { buildMcpServer } from './server.js'
import { toolCallOutcome, toolCalled, type ToolCallObserver, type ToolCallOutcome } from './tool-calls.js'

export const MCP_PATH = '/mcp'
/** Request headers MCP clients send (Streamable HTTP), allowed by CORS preflights. */
export const MCP_REQUEST_HEADERS = [
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
]
/** Response headers MCP clients read, exposed by CORS. */
export const MCP_RESPONSE_HEADERS = ['Mcp-Session-Id', 'Mcp-Protocol-Version']
/** Largest JSON-RPC request body accepted; tool arguments here are a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024
// JSON-RPC's implementation-defined server error; `data` says what happened.
const JSON_RPC_SERVER_ERROR = -32000
// JSON-RPC's "the JSON sent is not a valid Request object".
const JSON_RPC_INVALID_REQUEST = -32600
// JSON-RPC's "invalid method parameter(s)".
const JSON_RPC_INVALID_PARAMS = -32602
export const BATCH_REFUSAL =
  'Invalid Request: JSON-RPC batches are not served; send one request per POST (MCP has no batches since its 2025-06-18 revision). Each POST counts once in the quota.'
// The URL the SDK sees. It reads only the path and headers; a request's own Host (which a client
// controls, and which may not even form a URL) must not be able to make building it fail.
const SDK_URL = `http://localhost${MCP_PATH}`

/** Where the MCP handler reports client faults: low level, one line, no stack (a client fault is not a server error). */
type McpLog = { debug(fields: object, message: string): void }

/**
 * How a request is answered: a JSON reply read whole (kept answers, and every JSON answer of the SDK),
 * or a response to write as it comes (a stream of events).
 */
type McpAnswer = { reply: RawReply } | { write(res: ServerResponse): Promise<void> }

export type McpNodeHandler = {
  /**
   * Reads one request to MCP_PATH and decides its answer; never rejects (failures are answered as
   * JSON-RPC errors). The caller writes it, after its own header fields (the HTTP adapter's mount entry).
   */
  answer(req: IncomingMessage): Promise<McpAnswer>
  /**
   * The JSON-RPC error body for a request refused before the SDK saw it (quota, shutdown, method):
   * MCP clients show the body's text to the model ("Error POSTing to endpoint: …"), so the message
   * carries the wait, while HTTP infrastructure still sees the status and Retry-After. Given the
   * refused request, its body (unread so far) is read, bounded, for the id the error must echo.
   */
  errorBody(err: ApiError, status: number, req?: IncomingMessage): Promise<object>
  /** Ends requests in flight. */
  close(): Promise<void>
}

export type McpNodeHandlerOptions = {
  version: string
  /** The page of a record for people (see McpContext.recordPage). */
  recordPage(record: Pick<Fact, 'id' | 'url'>): string
  /** The clock (tests pin it). Default: the system's. */
  now?: () => Date
  log: McpLog
  /**
   * The snapshot the reader serves now (any object, compared by identity), when answers may be kept
   * per snapshot (call-cache.ts); undefined keeps nothing (a reader of a remote API).
   */
  snapshot?: () => object | undefined
  /** Told of every answer sent from a kept one (for metrics). */
  onKeptAnswer?: () => void
  /** Told of every tools/call answered, with its tool and outcome (for metrics). */
  onToolCall?: ToolCallObserver
}

/** What a request turned out to be, once read: a tools/call's tool label and its message. */
type ToolCalled = { tool?: string; message?: unknown }

export function createMcpNodeHandler(reader: RecordReader, options: McpNodeHandlerOptions): McpNodeHandler {
  const calls = new ToolCallCache()
  const now = options.now ?? (() => new Date())
  const factory = (): Promise<McpServer> =>
    buildMcpServer(reader, { version: options.version, recordPage: options.recordPage, now })
  const onerror = (err: Error) => options.log.debug({ problem: err.message }, 'mcp request rejected')
  const modern = withoutConsoleWarnings(options.log, () =>
    createMcpHandler(factory, {
      legacy: 'reject',
      responseMode: 'json',
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror,
    }),
  )

  // One server per request, closed whatever happens: a failing connect or request must not leak it,
  // and a failing close must neither replace the answer nor become an unhandled rejection.
  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    let server: McpServer | undefined
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    try {
      server = await factory()
      await server.connect(transport)
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody })
    } catch (err) {
      // The request was read: a failure now is ours, not the client's.
      onerror(err as Error)
      return jsonRpcError(500, 'Internal error: the request could not be served', idOf(parsedBody))
    } finally {
      try {
        await server?.close()
      } catch (err) {
        onerror(err as Error)
      }
    }
  }

  const sdkAnswer = async (
    req: IncomingMessage,
    body: Buffer<ArrayBuffer>,
    parsedBody: unknown,
  ): Promise<Response> => {
    const request = new Request(SDK_URL, { method: 'POST', headers: toHeaders(req), body })
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES }))
      return legacy(request, parsedBody)
    return modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody })
  }

  // An answer's outcome, read once per answer: a kept answer's first piece is shared by every reply made from it.
  const outcomes = new WeakMap<Buffer, ToolCallOutcome>()
  const outcomeOf = (reply: RawReply): ToolCallOutcome => {
    const first = reply.body[0]
    let outcome = first === undefined ? undefined : outcomes.get(first)
    if (outcome === undefined) {
      outcome = toolCallOutcome(Buffer.concat(reply.body).toString('utf8'))
      if (first !== undefined) outcomes.set(first, outcome)
    }
    return outcome
  }

  /** `called` is filled when the request is a tools/call (and the metrics listen): its tool and message. */
  const respond = async (req: IncomingMessage, called: ToolCalled): Promise<Response | RawReply> => {
    // Only a POST gets here: the admission refuses any other method with the mount's 405 (the route
    // table gives the endpoint POST alone: a stateless server has no session to stream on or to end).
    const body = await readBody(req)
    if (body === 'too large')
      return jsonRpcError(
        413,
        `Payload Too Large: the request body must not exceed ${MAX_BODY_BYTES} bytes`,
        null,
      )
    if (body === 'too large, not read')
      return jsonRpcError(
        413,
        `Payload Too Large: the request body must not exceed ${MAX_BODY_BYTES} bytes`,
        null,
        { connection: 'close' },
      )
    const parsedBody = parseJson(body)
    if (options.onToolCall !== undefined) {
      called.tool = toolCalled(parsedBody)
      called.message = parsedBody
    }
    // One request per POST: a batch of a hundred searches would cost a hundred calls' work for one unit
    // of the quota. MCP has had no batches since its 2025-06-18 revision; older clients send none.
    if (Array.isArray(parsedBody)) return jsonRpcError(400, BATCH_REFUSAL, null, {}, JSON_RPC_INVALID_REQUEST)
    // Params that are not an object: the SDK's transport refuses the whole message before any server sees it.
    const shape = paramsShapeProblem(parsedBody, headerValue(req, 'mcp-protocol-version'))
    if (shape !== undefined) return jsonRpcError(200, shape, idOf(parsedBody), {}, JSON_RPC_INVALID_PARAMS)
    const call = cacheableCall(parsedBody)
    const snapshot = call === undefined ? undefined : options.snapshot?.()
    if (call === undefined || snapshot === undefined) return sdkAnswer(req, body, parsedBody)
    // The day is part of the key: answers say how long ago a rule was verified, in days at the finest.
    const key = calls.keyOf(req, call.params, now().toISOString().slice(0, 10))
    const kept = calls.get(snapshot, key, call.id)
    if (kept !== undefined) {
      options.onKeptAnswer?.()
      return kept
    }
    const response = await sdkAnswer(req, body, parsedBody)
    if (
      response.body === null ||
      !(response.headers.get('content-type') ?? '').startsWith('application/json')
    )
      return response
    const reply = await toRawReply(response)
    calls.remember(snapshot, key, call.id, reply)
    return reply
  }

  const answer = async (req: IncomingMessage): Promise<McpAnswer> => {
    const called: ToolCalled = {}
    const answered = await answerRequest(req, called)
    if (called.tool !== undefined && 'reply' in answered)
      options.onToolCall?.(called.tool, outcomeOf(answered.reply), req, called.message)
    return answered
  }

  const answerRequest = async (req: IncomingMessage, called: ToolCalled): Promise<McpAnswer> => {
    let response: Response | RawReply
    try {
      response = await respond(req, called)
    } catch (err) {
      // The client went away mid-body, or sent headers a web Request cannot carry: its fault, not ours.
      onerror(err as Error)
      response = jsonRpcError(400, 'Bad request: the request could not be read', null)
    }
    if (!(response instanceof Response)) return { reply: response }
    // A JSON answer is read whole (it is one result); a stream of events is written as it comes, and
    // an answer without a body (an accepted notification) as it is.
    if (
      response.body === null ||
      (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    )
      return { write: (res) => writeResponse(response, res) }
    return { reply: await toRawReply(response) }
  }

  return {
    answer,
    async errorBody(err, status, req) {
      const data = {
        status,
        code: err.code,
        ...(err.retryAfterSeconds === undefined ? {} : { retry_after_seconds: err.retryAfterSeconds }),
      }
      const error = (id: JsonRpcId) => ({
        jsonrpc: '2.0',
        id,
        error: { code: JSON_RPC_SERVER_ERROR, message: err.message, data },
      })
      const ids = req === undefined ? null : await refusedRequestIds(req)
      // A batch is answered per request (JSON-RPC 2.0, "Batch"); a notification, an unreadable body or
      // a batch of notifications alone get one error with id null.
      return Array.isArray(ids) ? ids.map(error) : error(ids)
    },
    close: () => modern.close(),
  }
}

type JsonRpcId = string | number | null
/** How long a refusal waits for the refused request's body: an MCP request's body comes with its head. */
const REFUSED_BODY_WAIT_MS = 1_000

/**
 * The id(s) of a refused request: its id (null for a notification or a body that is not a JSON-RPC
 * request), or for a batch the ids of its requests (null when it holds only notifications). The body
 * is read up to MAX_BODY_BYTES and for at most REFUSED_BODY_WAIT_MS; past either, id null.
 */
async function refusedRequestIds(req: IncomingMessage): Promise<JsonRpcId | JsonRpcId[]> {
  const body = hasBody(req) ? await readBody(req, REFUSED_BODY_WAIT_MS).catch(() => undefined) : undefined
  const message = Buffer.isBuffer(body) ? parseJson(body) : undefined
  if (!Array.isArray(message)) return idOf(message)
  const ids = message.filter((m) => idOf(m) !== null).map(idOf)
  return ids.length > 0 ? ids : null
}

function idOf(message: unknown): JsonRpcId {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

/** Bytes of an oversized body read and thrown away, so that its connection can stay open. */
const MAX_DISCARDED_BYTES = 1024 * 1024

/** A body read, or why it was not: over MAX_BODY_BYTES (read to its end, or not), or not complete in time. */
type BodyRead = Buffer<ArrayBuffer> | 'too large' | 'too large, not read' | 'too slow'

/**
 * The one reader of a request's body, bounded in size and, given `withinMs`, in time. Past
 * MAX_BODY_BYTES it is 'too large' once the rest has been read and thrown away (up to
 * MAX_DISCARDED_BYTES), or 'too large, not read' beyond that (the connection must then close):
 * closing a connection with unread bytes in it makes the kernel reset it, which throws away the
 * answers still being sent on it (pipelined before this request), so a body is read to its end
 * whenever that stays cheap. 'too slow' when it is not complete within `withinMs` (what is left is
 * then discarded). Rejects when the request fails, or when its body was read already. Events rather
 * than an async iterator: a body of a few hundred bytes is one chunk, and the iterator's promises
 * per chunk were a visible share of a kept MCP answer.
 */
function readBody(req: IncomingMessage): Promise<Exclude<BodyRead, 'too slow'>>
function readBody(req: IncomingMessage, withinMs: number): Promise<BodyRead>
function readBody(req: IncomingMessage, withinMs?: number): Promise<BodyRead> {
  if (Number(req.headers['content-length']) > MAX_DISCARDED_BYTES)
    return Promise.resolve('too large, not read')
  if (req.readableEnded) return Promise.reject(new Error('the request body was read already'))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      clearTimeout(timer)
      req.off('data', onData).off('end', onEnd).off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
      chunks.length = 0
      if (size <= MAX_DISCARDED_BYTES) return
      stop()
      req.pause()
      resolve('too large, not read')
    }
    const onEnd = () => {
      stop()
      resolve(size > MAX_BODY_BYTES ? 'too large' : Buffer.concat(chunks, size))
    }
    const onError = (err: Error) => {
      stop()
      reject(err)
    }
    const timer =
      withinMs === undefined
        ? undefined
        : setTimeout(() => {
            stop()
            req.resume()
            resolve('too slow')
          }, withinMs)
    req.on('data', onData).on('end', onEnd).on('error', onError)
  })
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined // the SDK reads the raw body and answers its own parse error
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  return headers
}

function jsonRpcError(
  status: number,
  message: string,
  id: string | number | null,
  headers: Record<string, string> = {},
  code = JSON_RPC_SERVER_ERROR,
): Response {
  const body = { jsonrpc: '2.0', id, error: { code, message } }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** A JSON answer of the SDK, read whole. */
async function toRawReply(response: Response): Promise<RawReply> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  const body = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers, body: [body], length: body.length }
}

/** Writes a web response as it comes: no body, or a stream of events. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  if (response.body === null) return void res.writeHead(response.status, headers).end()
  res.writeHead(response.status, headers)
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
  res.on('close', () => stream.destroy())
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}

/**
 * Runs `build` with console.warn routed to the log: the SDK writes a plain-text notice on stderr when
 * a JSON-mode handler is built, and the service's output must stay one JSON object per line.
 */
function withoutConsoleWarnings<T>(log: McpLog, build: () => T): T {
  const warn = console.warn
  console.warn = (...args: unknown[]) => log.debug({ notice: args.map(String).join(' ') }, 'mcp sdk notice')
  try {
    return build()
  } finally {
    console.warn = warn
  }
}
