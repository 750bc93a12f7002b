/**
 * Accents typed straight into a URL (`curl "…/facts?q=priorité"`) arrive as raw UTF-8 bytes in the
 * request target, which Node's HTTP parser refuses outright (HPE_INVALID_URL), even in its lenient
 * mode. nginx and most servers accept them, and a French API's first users type exactly that.
 *
 * So when the parser refuses a request for that reason, and the target's raw bytes are valid UTF-8
 * (nothing else wrong: no control characters, no spaces), the request is read again with those
 * bytes percent-encoded, through a connection injected into the same server (injected-connection.ts):
 * the answer is exactly what the encoded URL gets,
 * quota and all. The connection closes after that answer. Only such requests pay for this; the
 * parser handles every other request natively.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { injectConnection } from './injected-connection.js'

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (HTTP\/1\.[01])\r\n/
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The request head with its target percent-encoded, or undefined when `packet` is not one whole
 * bodiless request head whose only fault is raw UTF-8 in the target.
 */
export function encodeRawTarget(packet: Buffer): Buffer | undefined {
  const headEnd = packet.indexOf('\r\n\r\n')
  if (headEnd === -1 || headEnd + 4 !== packet.length) return undefined // a body, a pipelined request or a partial head: not ours to guess
  const head = packet.subarray(0, headEnd + 4)
  const lineEnd = head.indexOf('\r\n')
  const line = head.subarray(0, lineEnd + 2)
  const match = REQUEST_LINE.exec(line.toString('latin1'))
  if (match === null) return undefined
  const [, method, , version] = match
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const target = line.subarray(method!.length + 1, lineEnd - version!.length - 1)
  if (!target.some((byte) => byte >= 0x80)) return undefined
  if (target.some((byte) => byte < 0x21 || byte === 0x7f)) return undefined
  try {
    strictUtf8.decode(target)
  } catch {
    return undefined
  }
  let encoded = ''
  for (const byte of target)
    encoded +=
      byte >= 0x80 ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte)
  const rest = head.subarray(lineEnd + 2, headEnd + 2).toString('latin1')
  return Buffer.from(`${method} ${encoded} ${version}\r\n${rest}Connection: close\r\n\r\n`, 'latin1')
}

/**
 * Serves `head` on a connection injected into `server`, copying the answer to `socket` and closing
 * it afterwards. The injected connection carries the client's address, so it counts in the client's quota.
 */
export function replayOnInjectedConnection(server: Server, socket: Socket, head: Buffer): void {
  const injected = injectConnection(server, {
    bytes: head,
    remote: { address: socket.remoteAddress, port: socket.remotePort, family: socket.remoteFamily },
    write: (chunk, done) => void socket.write(chunk, done),
    end: () => socket.end(),
  })
  socket.on('close', () => injected.destroy())
  injected.on('error', () => socket.destroy())
}
