/**
 * A TCP proxy to a real server, for fault injection: `cut()` drops every connection and refuses new
 * ones (as a network partition or a restarting database would), `restore()` lets them through again.
 */
import { createConnection, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export type TcpProxy = { port: number; cut(): void; restore(): void; close(): Promise<void> }

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let down = false
  const server = createServer((client) => {
    if (down) return client.destroy()
    const upstream = createConnection(target)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      down = true
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      down = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
