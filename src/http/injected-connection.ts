/**
 * A connection in memory handed to an HTTP server (`server.emit('connection', duplex)`, which Node
 * documents for giving an HTTP server any stream). It is the one such seam: the server's replay of a
 * target typed with raw UTF-8 (utf8-target.ts), its check of Node's internals at start
 * (node-internals.ts), and the requests of the tests and benches (test/support/in-process.ts,
 * bench/quota-cost.ts), which so go through the front door, the admission and whatever answers
 * after them exactly as a request on a socket does.
 */
import type { Server } from 'node:http'
import { Duplex } from 'node:stream'

export type InjectedConnection = {
  /** What the server reads, once (later bytes may be pushed on the returned stream). */
  bytes?: Buffer | string
  /** The client as the server sees it (the quota's key, the logs); none when absent. */
  remote?: { address: string | undefined; port: number | undefined; family: string | undefined }
  /** Each chunk the server writes; `done` once it is taken. */
  write(chunk: Buffer, done: (err?: Error | null) => void): void
  /** The server ended the connection. */
  end?(): void
}

/** Hands `server` a connection made of `connection`'s callbacks; returns it (to push more bytes, or destroy it). */
export function injectConnection(server: Server, connection: InjectedConnection): Duplex {
  let sent = connection.bytes === undefined
  const injected = new Duplex({
    read() {
      if (sent) return
      sent = true
      this.push(connection.bytes)
    },
    write(chunk: Buffer, _encoding, done) {
      connection.write(chunk, done)
    },
    final(done) {
      connection.end?.()
      done()
    },
  })
  if (connection.remote !== undefined)
    Object.defineProperties(injected, {
      remoteAddress: { value: connection.remote.address },
      remotePort: { value: connection.remote.port },
      remoteFamily: { value: connection.remote.family },
      // Fastify and the request log read these; an injected connection is never encrypted.
      encrypted: { value: false },
    })
  server.emit('connection', injected)
  return injected
}
