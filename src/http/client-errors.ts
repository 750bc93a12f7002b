/**
 * Requests Node's HTTP parser refuses before Fastify sees them (malformed request line, raw NUL or
 * control bytes, headers over 16 KiB). Fastify's default answer has its own body; this one writes the
 * contract's error body with CORS, so even these failures are readable by a browser client.
 */
import type { Socket } from 'node:net'

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

function statusFor(err: NodeJS.ErrnoException): number {
  if (err.code === 'HPE_HEADER_OVERFLOW') return 431
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  return 400
}

export function handleClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // ECONNRESET and friends: the client is gone, nobody would read an answer.
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const status = statusFor(err)
  const message = status === 431 ? 'Request line or headers too large (at most 16 KiB)' : status === 408 ? 'Request not received in time' : 'Malformed HTTP request'
  const body = JSON.stringify({ error: { code: 'invalid_parameter', message } })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'Access-Control-Allow-Origin: *\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}
