/**
 * Response heads composed here, for the fast path's prepared answers. Node's `writeHead` validates
 * every header field and joins them into the head on every response: for an API answer of eleven
 * fields that is about a sixth of the fast path's whole cost, more than the service's own work
 * (docs/benchmarks.md, "Where the time goes"). The fast path's fields are its own and fixed — CORS,
 * ETags, lengths, a request id it checked — so they are joined once, when an answer is prepared, and
 * only the few per-request fields (request id, quota, Date) are added per response.
 *
 * No library sends a prepared head through node:http, so it is written here, leaning on one thing
 * Node does not document: a response sends the string in `_header` as its head, with its first body
 * bytes, when `_headerSent` is false (OutgoingMessage#_send, the same in Node 20 and 24). Nothing
 * relies on that untested: `rawHeads()` serves a response both ways on a server of the service's
 * settings, over an in-memory connection, once at start, and falls back to `writeHead` for good unless
 * the bytes are identical. Only keep-alive HTTP/1.1 responses take this way (the fast path's own,
 * whose fields are all in the head it composes; a drain in progress marks them `Connection: close`);
 * every other response (a closing connection, HTTP/1.0, a drain) goes through `writeHead`, which
 * decides the connection fields as always.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'

/** Header fields as one string: `name: value\r\n` each, in order. */
export function fieldText(fields: readonly string[]): string {
  let text = ''
  for (let i = 0; i < fields.length; i += 2) text += `${fields[i]}: ${fields[i + 1]}\r\n`
  return text
}

/** Node's own head fields after the answer's, as `_storeHeader` writes them on a keep-alive response. */
type Internals = ServerResponse & { _header: string | null; _headerSent: boolean; _hasBody: boolean; shouldKeepAlive: boolean }

const STATUS_LINES = new Map<number, string>()
const statusLine = (status: number) => {
  let line = STATUS_LINES.get(status)
  if (line === undefined) STATUS_LINES.set(status, (line = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`))
  return line
}

/** `Date: …\r\n`, made again once a second, as Node caches its own. */
let dateField = ''
let dateExpiresAt = 0
function currentDateField(): string {
  const now = Date.now()
  if (now >= dateExpiresAt) {
    dateField = `Date: ${new Date(now).toUTCString()}\r\n`
    dateExpiresAt = now - (now % 1000) + 1000
  }
  return dateField
}

export type RawHeads = {
  /** Whether `res` may be sent with a composed head (else: `writeHead`). */
  usable(req: IncomingMessage, res: ServerResponse): boolean
  /**
   * Sends `res` with the status, the fields already joined by `fieldText`, and the body, whole or in
   * pieces (none for a 304 or a HEAD: Node drops it as writeHead's response would). Call only when
   * `usable`.
   */
  send(res: ServerResponse, status: number, fields: string, body: Body): void
}

/** A response body, whole or in pieces sent one after the other. */
export type Body = Buffer | readonly Buffer[] | undefined

/** Ends `res` with `body` (its head set): pieces are written corked, so they leave in one write. */
export function endWith(res: ServerResponse, body: Body): void {
  if (body === undefined || Buffer.isBuffer(body)) return void res.end(body)
  const last = body.length - 1
  for (let i = 0; i < last; i++) res.write(body[i])
  res.end(body[last])
}

/** Heads composed for a server whose keep-alive timeout is `keepAliveMs`; exported for the check's tests. */
export function composedHeads(keepAliveMs: number): RawHeads {
  const connection = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`
  return {
    // Only a `Connection` field can have been set on a fast-path response before it is sent (by a drain).
    usable: (req, res) => (res as Internals).shouldKeepAlive === true && req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && !res.headersSent && !res.hasHeader('connection'),
    send(res, status, fields, body) {
      const raw = res as Internals
      res.statusCode = status
      // writeHead does the same for the statuses that never carry a body.
      if (status === 304 || status === 204) raw._hasBody = false
      raw._header = statusLine(status) + fields + currentDateField() + connection
      raw._headerSent = false
      endWith(res, body)
    },
  }
}

/**
 * Composed heads when this Node sends them exactly as `writeHead` would, undefined otherwise. Checked
 * on a server with the service's keep-alive timeout, fed one connection in memory (Node's documented
 * way to give an HTTP server any Duplex stream), never on a network socket.
 */
export async function rawHeads(keepAliveMs: number): Promise<RawHeads | undefined> {
  const heads = composedHeads(keepAliveMs)
  return (await sendsLikeWriteHead(heads, keepAliveMs)) ? heads : undefined
}

/** How long the check may take before it counts as failed (it takes a few ms). */
const CHECK_TIMEOUT_MS = 2_000

/** Whether `heads` answers a keep-alive request, 200 and 304, with the bytes `writeHead` sends. */
export async function sendsLikeWriteHead(heads: RawHeads, keepAliveMs: number, timeoutMs = CHECK_TIMEOUT_MS): Promise<boolean> {
  const fields = ['access-control-allow-origin', '*', 'etag', '"probe"', 'content-type', 'application/json; charset=utf-8', 'content-length', '2']
  const body = Buffer.from('{}')
  const answered = new Map<string, () => void>()
  const server = createServer({ keepAliveTimeout: keepAliveMs }, (req, res) => {
    res.once('finish', () => setImmediate(answered.get(req.url!)!))
    const [status, sent, sentBody] = req.url!.endsWith('304') ? [304, fields.slice(0, 4), undefined] : [200, fields, body]
    if (!req.url!.startsWith('/composed')) {
      res.writeHead(status, sent)
      res.end(sentBody)
    } else if (heads.usable(req, res)) heads.send(res, status, fieldText(sent), sentBody)
    else res.end()
  })
  /** The bytes a request for `path` is answered with. */
  const exchange = (path: string) =>
    new Promise<string>((resolve) => {
      let received = ''
      const connection = new Duplex({
        read() {},
        write(chunk: Buffer, _encoding, done) {
          received += chunk.toString('latin1')
          done()
        },
      })
      answered.set(path, () => {
        connection.destroy()
        resolve(received)
      })
      server.emit('connection', connection)
      connection.push(`GET ${path} HTTP/1.1\r\nHost: probe\r\n\r\n`)
    })
  // The Date field may differ if a second turns between two answers: compared without it.
  const withoutDate = (head: string) => head.replace(/\r\nDate: [^\r]*/, '')
  const compare = async () => {
    for (const status of ['', '304']) {
      const [composed, written] = [await exchange(`/composed${status}`), await exchange(`/written${status}`)]
      if (!written.startsWith('HTTP/1.1') || withoutDate(composed) !== withoutDate(written)) return false
    }
    return true
  }
  let timer: NodeJS.Timeout | undefined
  try {
    // A response that never finishes (internals that changed more than the bytes) counts as a difference.
    return await Promise.race([compare(), new Promise<boolean>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)))])
  } finally {
    clearTimeout(timer)
    server.close()
  }
}
