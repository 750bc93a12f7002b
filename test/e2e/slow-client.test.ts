/** A client that trickles its request head (slowloris) is cut off by the headers timeout (10 s), not held for ever. */
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

it('answers 408 with the error body and closes a connection whose headers never complete', async () => {
  const { port } = new URL(server.url)
  const socket = connect(Number(port), '127.0.0.1')
  let received = ''
  socket.on('data', (c) => (received += c))
  await new Promise((r) => socket.once('connect', r))
  const started = Date.now()
  socket.write('GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: x\r\n')
  const tick = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 2_000) // still sending, never done
  await new Promise((r) => socket.once('close', r))
  clearInterval(tick)
  const seconds = (Date.now() - started) / 1000
  expect(seconds).toBeGreaterThanOrEqual(9)
  expect(seconds).toBeLessThan(14)
  expect(received).toMatch(/^HTTP\/1\.1 408 /)
  expect(received).toMatch(/"code":"invalid_parameter","message":"Request not received in time"/)
}, 30_000)
