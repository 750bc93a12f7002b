/**
 * Issue 10.6: a client that pipelines requests without reading the answers held ~2 MB of the process
 * per connection, for as long as it stayed (150 such connections: +290 MB, nothing freed in 110 s).
 * Now a connection is not served further while its earlier answers are unsent, and a connection that
 * makes no progress is closed after a bounded time (here shortened to 1.5 s).
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { processHeldBytes } from '../support/garbage.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const CONNECTIONS = 20
let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ RECORDS_FILE: BUNDLED_RECORDS_FILE }, { timeouts: { stallMs: 1_500 } })
})
afterAll(() => server.close())

/** Opens `count` connections that each send `requests` pipelined requests and never read; resolves once all is sent. */
async function nonReaders(port: number, count: number, requests: number): Promise<Socket[]> {
  // 50-record pages of the sample, ~73 KB each.
  const request = 'GET /api/v1/facts?po_live=1&limit=50 HTTP/1.1\r\nHost: localhost\r\n\r\n'
  const sockets = Array.from({ length: count }, () => {
    const socket = connect(port, '127.0.0.1')
    socket.pause() // never read: the kernel's receive queue fills, then the server's send queue
    socket.on('error', () => {})
    return socket
  })
  await Promise.all(
    sockets.map((socket) => new Promise((resolve) => socket.write(request.repeat(requests), resolve))),
  )
  return sockets
}

const openConnections = () =>
  new Promise<number>((resolve, reject) =>
    server.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  )

it('holds little per connection that does not read, and closes it once nothing moves', async () => {
  const before = processHeldBytes()
  const sockets = await nonReaders(Number(new URL(server.url).port), CONNECTIONS, 24)
  await new Promise((r) => setTimeout(r, 1_000))
  const grownPerConnection = (processHeldBytes() - before) / CONNECTIONS
  console.log(`held per non-reading connection: ${(grownPerConnection / 1024).toFixed(0)} KiB`)
  expect(grownPerConnection).toBeLessThan(400 * 1024)
  // Seen from the server's side: a paused client socket does not notice the close.
  await expect.poll(openConnections, { timeout: 10_000, interval: 200 }).toBeLessThanOrEqual(1) // the test server's own fetch may still be open
  for (const socket of sockets) socket.destroy()
}, 20_000)

it('closes at once a connection with hundreds of unanswered pipelined requests', async () => {
  const before = processHeldBytes()
  const sockets = await nonReaders(Number(new URL(server.url).port), CONNECTIONS, 400)
  await new Promise((r) => setTimeout(r, 300)) // well below the 1.5 s stall bound
  expect(await openConnections()).toBeLessThanOrEqual(1)
  expect((processHeldBytes() - before) / CONNECTIONS).toBeLessThan(100 * 1024)
  for (const socket of sockets) socket.destroy()
})
