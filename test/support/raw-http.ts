/**
 * Raw HTTP/1.1 over a TCP socket, for the tests that must send exact bytes (odd request targets,
 * smuggling, pipelining, malformed framing) and count exactly what comes back. fetch and
 * node:http normalise requests and hide extra responses, so they cannot see these cases.
 */
import { connect, type Socket } from 'node:net'

export type RawResponse = {
  status: number
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
  text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any
}

export type RawExchange = {
  responses: RawResponse[]
  /** Whether the server closed the connection before the exchange ended. */
  closedByServer: boolean
  /** Bytes received that do not form a complete response (should be empty). */
  leftover: Buffer
}

export type RawOptions = {
  /**
   * How long to wait for more bytes after the last one, in ms. Default 300. The wait for the first
   * byte is `timeoutMs`: on a busy machine a first answer can take longer than this (a 400 came
   * after more than 300 ms in a loaded run, and the exchange ended with no response).
   */
  idleMs?: number
  /** Methods of the requests sent, in order, so HEAD responses are read without a body. */
  methods?: string[]
  /** Close our side for writing after sending (the server then sees the end of input). Default false. */
  endAfterWrite?: boolean
  /** Gives up after this long in all, in ms. Default 10 000. */
  timeoutMs?: number
}

/** Opens a connection to 127.0.0.1:port, sends `bytes`, and collects every response until the server is idle or closes. */
export async function rawExchange(
  port: number,
  bytes: string | Buffer | (string | Buffer)[],
  options: RawOptions = {},
): Promise<RawExchange> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  return exchangeOn(socket, bytes, options)
}

async function exchangeOn(
  socket: Socket,
  bytes: string | Buffer | (string | Buffer)[],
  options: RawOptions = {},
): Promise<RawExchange> {
  const chunks: Buffer[] = []
  let closedByServer = false
  const done = new Promise<void>((resolve) => {
    let idle: NodeJS.Timeout | undefined
    const overall = setTimeout(finish, options.timeoutMs ?? 10_000)
    function finish() {
      clearTimeout(idle)
      clearTimeout(overall)
      resolve()
    }
    const arm = () => {
      clearTimeout(idle)
      idle = setTimeout(finish, options.idleMs ?? 300)
    }
    socket.on('data', (c: Buffer) => {
      chunks.push(c)
      arm()
    })
    socket.on('end', () => {
      closedByServer = true
      finish()
    })
    socket.on('close', () => {
      closedByServer = true
      finish()
    })
    socket.on('error', () => {
      closedByServer = true
      finish()
    })
  })
  for (const part of Array.isArray(bytes) ? bytes : [bytes]) socket.write(part)
  if (options.endAfterWrite) socket.end()
  await done
  socket.destroy()
  const { responses, leftover } = parseResponses(Buffer.concat(chunks), options.methods ?? [])
  return { responses, closedByServer, leftover }
}

/** Splits a byte stream into HTTP/1.1 responses (Content-Length or chunked bodies). */
export function parseResponses(
  data: Buffer,
  methods: string[],
): { responses: RawResponse[]; leftover: Buffer } {
  const responses: RawResponse[] = []
  let at = 0
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at)
    if (headEnd === -1) break
    const [statusLine, ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n')
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)
    if (!match) break
    const status = Number(match[1])
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    let bodyStart = headEnd + 4
    let body: Buffer
    // Interim answers (1xx) precede their request's final answer: they take no place in `methods`.
    const finals = responses.filter((r) => r.status >= 200).length
    const noBody =
      methods[finals] === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)
    if (noBody) body = Buffer.alloc(0)
    else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const parts: Buffer[] = []
      let complete = false
      for (;;) {
        const lineEnd = data.indexOf('\r\n', bodyStart)
        if (lineEnd === -1) break
        const size = parseInt(data.subarray(bodyStart, lineEnd).toString('latin1'), 16)
        if (Number.isNaN(size) || lineEnd + 2 + size + 2 > data.length) break
        if (size === 0) {
          bodyStart = lineEnd + 4
          complete = true
          break
        }
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
        bodyStart = lineEnd + 2 + size + 2
      }
      if (!complete) break
      body = Buffer.concat(parts)
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      if (bodyStart + length > data.length) break
      body = data.subarray(bodyStart, bodyStart + length)
      bodyStart += length
    } else {
      body = data.subarray(bodyStart) // until close
      bodyStart = data.length
    }
    if (noBody) bodyStart = headEnd + 4
    const text = body.toString('utf8')
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    responses.push({ status, headers, body, text, json })
    at = bodyStart
  }
  return { responses, leftover: data.subarray(at) }
}
