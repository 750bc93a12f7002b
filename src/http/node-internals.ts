/**
 * The one thing this service reads of Node's HTTP server that Node does not document, in one place,
 * checked at start, with a named fallback (docs/design.md, "Node's internals").
 *
 * Node's HTTP server stops reading a connection whose client pipelines requests faster than it reads
 * the answers, and marks that with the socket's `_paused` (node:_http_server, the same in Node 20
 * and 24); it resumes the socket itself once the answers drained. The connection tracker
 * (connections.ts) also pauses a connection whose client is not reading, and when it resumes one it
 * must not undo Node's own pause, which nothing public tells apart. `checkNodeInternals()` serves one
 * connection in memory at start and looks for the mark where Node keeps it; if Node ever stops
 * keeping it, the fallback reads the public `writableNeedDrain` (the socket's own send buffer is full:
 * Node's usual reason to pause), which misses only a pause for answers still queued inside Node — a
 * case the tracker's own bound on waiting requests (MAX_WAITING) still limits.
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { injectConnection } from './injected-connection.js'

type MarkedSocket = Socket & { _paused?: unknown }

/** How `pausedByNode` reads: Node's own mark, or the public fallback. */
export type PauseReading = 'node-mark' | 'writable-need-drain'
let reading: PauseReading = 'writable-need-drain'

/** Whether Node's HTTP server paused `socket` itself (so that whoever resumes it would undo that). */
export function pausedByNode(socket: Socket): boolean {
  return reading === 'node-mark' ? (socket as MarkedSocket)._paused === true : socket.writableNeedDrain
}

/** How `pausedByNode` reads on this Node, once `checkNodeInternals` ran. */
export const pauseReading = (): PauseReading => reading

/**
 * Serves one request on a connection in memory (Node's documented way to hand an HTTP server any
 * Duplex) and keeps Node's mark only if the server's socket carries it as a boolean.
 */
export async function checkNodeInternals(
  makeServer: (listener: RequestListener) => Server = createServer,
): Promise<PauseReading> {
  const marked = await new Promise<boolean>((resolve) => {
    const server = makeServer((req, res) => {
      const mark = (req.socket as MarkedSocket)._paused
      res.end()
      server.close()
      resolve(typeof mark === 'boolean')
    })
    injectConnection(server, {
      bytes: 'GET / HTTP/1.1\r\nHost: check\r\n\r\n',
      write: (_chunk, done) => done(),
    })
    setTimeout(() => resolve(false), 1_000).unref()
  })
  reading = marked ? 'node-mark' : 'writable-need-drain'
  return reading
}
