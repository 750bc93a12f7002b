/**
 * A client that trickles its request head (slowloris) is cut off by the headers timeout, not held for
 * ever. The timeouts are the service's own option (ServiceOptions.timeouts): shortened here, so the
 * test takes a second instead of ten; the defaults' wiring to Node is checked on a default service.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEFAULT_TIMEOUTS } from '../../src/http/server.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

// The request timeout far beyond the headers timeout, so that only the latter can explain the cut.
const TIMEOUTS = { headersMs: 1_000, requestMs: 20_000, checkEveryMs: 100 }

let server: TestServer
let defaults: TestServer
beforeAll(async () => {
  server = await startTestServer({}, { timeouts: TIMEOUTS })
  defaults = await startTestServer()
})
afterAll(async () => {
  await server.close()
  await defaults.close()
})

it('answers 408 with the error body and closes a connection whose headers never complete', async () => {
  const { port } = new URL(server.url)
  // Before connecting: the server's clock for the head starts with the connection, never before this.
  const started = Date.now()
  const socket = connect(Number(port), '127.0.0.1')
  let received = ''
  socket.on('data', (c) => (received += c))
  await new Promise((r) => socket.once('connect', r))
  socket.write('GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: localhost\r\n')
  const tick = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200) // still sending, never done
  await new Promise((r) => socket.once('close', r))
  clearInterval(tick)
  const elapsedMs = Date.now() - started
  expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs)
  expect(elapsedMs).toBeLessThan(TIMEOUTS.requestMs / 2)
  expect(received).toMatch(/^HTTP\/1\.1 408 /)
  expect(received).toMatch(/"code":"invalid_parameter","message":"Request not received in time"/)
})

it('gives Node the documented defaults when none are set: 10 s for the head, 15 s for the request', () => {
  const node = defaults.app.server
  expect(DEFAULT_TIMEOUTS).toMatchObject({ headersMs: 10_000, requestMs: 15_000, keepAliveMs: 5_000 })
  expect({
    headers: node.headersTimeout,
    request: node.requestTimeout,
    keepAlive: node.keepAliveTimeout,
    idle: node.timeout,
  }).toEqual({
    headers: DEFAULT_TIMEOUTS.headersMs,
    request: DEFAULT_TIMEOUTS.requestMs,
    keepAlive: DEFAULT_TIMEOUTS.keepAliveMs,
    // No idle timer per socket: the connections' watch closes a stalled one (connections.ts).
    idle: 0,
  })
  expect(DEFAULT_TIMEOUTS.stallMs).toBe(30_000)
})
