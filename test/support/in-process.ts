/**
 * The one in-process seam between a test and a service: a raw request handed to the service's HTTP
 * server on an in-memory connection (src/http/injected-connection.ts, the server's own seam). It
 * goes through the front door, the admission and whatever answers after them exactly as a request
 * on a socket does, which `app.inject` does not (it calls
 * the framework's handler behind the front door). The answer is the bytes the server wrote, or those
 * bytes read back by Node's own HTTP client (chunked bodies, interim answers and all).
 */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import { Duplex } from 'node:stream'
import { injectConnection } from '../../src/http/injected-connection.js'

/** What answers: a service, a Fastify app, anything with the HTTP server it listens with. */
export type InProcessTarget = {
  readonly server: Server
  /** The framework's routes are compiled before the first request, as `listen` does. */
  ready(): PromiseLike<unknown>
}

export type ExchangeOptions = {
  /** The client's address as the server sees it (the quota's key, /metrics' allow list); loopback by default. */
  address?: string
}

/**
 * The bytes `target` answers the raw `bytes` (a request head, and its body) with, on a connection of
 * its own, once the server closes it: the request should say `connection: close` or be one the
 * server refuses.
 */
export async function exchange(
  target: InProcessTarget,
  bytes: string | Buffer,
  { address = '127.0.0.1' }: ExchangeOptions = {},
): Promise<Buffer> {
  await target.ready()
  return new Promise((resolve, reject) => {
    const received: Buffer[] = []
    const connection = injectConnection(target.server, {
      bytes,
      remote: { address, port: 40_000, family: address.includes(':') ? 'IPv6' : 'IPv4' },
      write(chunk, done) {
        received.push(chunk)
        done()
      },
      end: () => resolve(Buffer.concat(received)),
    })
    connection.on('error', reject)
  })
}

export type Request = {
  method?: string
  /** The request target as sent, e.g. `/api/v1/facts?q=vitesse&po_live=1`. */
  target: string
  /** Sent after `host: localhost` and `connection: close`, which they may replace. */
  headers?: Record<string, string>
  body?: string | Buffer
}

/** The raw request `request` describes: its head, then its body. */
export function requestBytes(request: Request): Buffer {
  const body = request.body ?? ''
  const fields: Record<string, string> = {
    host: 'localhost',
    connection: 'close',
    ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
    ...request.headers,
  }
  const head = `${request.method ?? 'GET'} ${request.target} HTTP/1.1\r\n${Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)])
}

export type Answer = {
  status: number
  /** Lower-case names, as Node's client reads them. */
  headers: IncomingHttpHeaders
  body: Buffer
  /** The body as UTF-8 text. */
  text: string
  json(): unknown
}

/** What `target` answers `request` with, read back as a client reads it. */
export async function send(
  target: InProcessTarget,
  request: Request,
  options?: ExchangeOptions,
): Promise<Answer> {
  return readAnswer(await exchange(target, requestBytes(request), options), request.method)
}

/**
 * The answer in `bytes`, as Node's HTTP client reads it (its parser, not one written here): the
 * method matters, since the answer to a HEAD has no body whatever its Content-Length says.
 */
function readAnswer(bytes: Buffer, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = false
    const recorded = new Duplex({
      read() {
        if (sent) return
        sent = true
        this.push(bytes)
        this.push(null)
      },
      write(_chunk, _encoding, done) {
        done() // the client's own request: already answered
      },
    })
    const client = httpRequest({ method, path: '/', createConnection: () => recorded }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const body = Buffer.concat(chunks)
        const text = body.toString('utf8')
        resolve({ status: res.statusCode!, headers: res.headers, body, text, json: () => JSON.parse(text) })
      })
    })
    client.on('error', reject)
    client.end()
  })
}
