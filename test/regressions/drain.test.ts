/**
 * Issue 10.7: on SIGTERM under load, requests that arrived after the signal got a connection reset
 * (64 per run), never the documented 503; one slow client connected at SIGTERM made the process exit
 * 1 after 10 s. A drain answers late requests 503 + Retry-After + Connection: close, closes idle and
 * slow connections, lets in-flight requests finish and exits 0 within its bound.
 */
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { listeningUrl, spawnCli } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

/** The service's drain bound (service.ts), past which every connection is closed. */
const DRAIN_BOUND_MS = 8_000

const serve = () =>
  spawnCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
    LOG_LEVEL: 'info',
    RECORDS_FILE: SMALL_FIXTURE,
  })

type Outcome = { status?: number; error?: string; retryAfter?: string; connection?: string; code?: string }

function get(port: number, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/v1/facts?po_live=1&q=vitesse', agent },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => {
          const code =
            res.statusCode === 503 ? (JSON.parse(body) as { error: { code: string } }).error.code : undefined
          resolve({
            status: res.statusCode,
            retryAfter: res.headers['retry-after'],
            connection: res.headers.connection,
            code,
          })
        })
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
      },
    )
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
    req.end()
  })
}

/** A keep-alive connection that made one request and stays open; `send()` makes another and returns the raw answer. */
async function rawKeepAlive(port: number) {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  let received = ''
  socket.on('data', (c) => (received += c))
  await new Promise((r) => socket.once('connect', r))
  let closed = false
  socket.on('close', () => (closed = true))
  const exchange = async () => {
    received = ''
    socket.write('GET /api/v1/?po_live=1 HTTP/1.1\r\nHost: localhost\r\n\r\n')
    // Until a whole JSON answer arrived or the connection closed (the machine may be busy).
    await expect.poll(() => closed || /\}\s*$/.test(received), { timeout: 5_000, interval: 20 }).toBe(true)
    return received
  }
  await exchange()
  return { send: exchange }
}

describe('draining on SIGTERM', () => {
  it('answers every request under load with 200 or 503, never a reset, and exits 0 within its bound', async () => {
    const service = serve()
    const port = Number(new URL(await listeningUrl(service)).port)
    const agent = new Agent({ keepAlive: true, maxSockets: 32 })
    const outcomes: Outcome[] = []
    let stop = false
    const client = async () => {
      while (!stop) {
        const outcome = await get(port, agent)
        outcomes.push(outcome)
        // Once the listener is closed, new connections are refused: that is no request lost.
        if (outcome.error === 'ECONNREFUSED') return
      }
    }
    const clients = Array.from({ length: 32 }, client)
    // An idle keep-alive connection whose client sends again just after the signal.
    const idle = await rawKeepAlive(port)
    await new Promise((r) => setTimeout(r, 500))
    const signalled = Date.now()
    service.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 200))
    const lateAnswer = await idle.send()
    const code = await service.exited
    console.log(`drain under load: exited ${Date.now() - signalled} ms after SIGTERM`)
    stop = true
    await Promise.all(clients)
    agent.destroy()

    // Exit code 0 is the drain ending within its bound: close-with-grace's own, at 10 s, exits 1.
    expect(code).toBe(0)
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(100)
    // Requests in flight at the signal finish (with Connection: close); later ones on open connections get 503.
    for (const o of outcomes.filter((o) => o.status === 503))
      expect(o).toEqual({ status: 503, retryAfter: '1', connection: 'close', code: 'unavailable' })
    expect(lateAnswer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/)
    expect(lateAnswer).toMatch(/\r\nretry-after: 1\r\n/)
    expect(lateAnswer).toMatch(/\r\nconnection: close\r\n/)
    expect(lateAnswer).toMatch(
      /\{"error":\{"code":"unavailable","message":"The server is shutting down; retry shortly"\}\}$/,
    )
    const failures = outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNREFUSED')
    expect(failures).toEqual([])
    expect(service.stdout()).toMatch(
      /"msg":"shutting down: refusing new requests, finishing those in flight"/,
    )
    expect(service.stdout()).toMatch(/"msg":"stopped"/)
  }, 30_000)

  it('does not wait for a slow client: exits 0 well before the headers timeout', async () => {
    const service = serve()
    const port = Number(new URL(await listeningUrl(service)).port)
    const slow = connect(port, '127.0.0.1')
    slow.on('error', () => {})
    await new Promise((r) => slow.once('connect', r))
    slow.write('GET /api/v1/facts?po_live=1 HTTP/1.1\r\nHost: localhost\r\n') // and never the end of the head
    const started = Date.now()
    service.child.kill('SIGTERM')
    expect(await service.exited).toBe(0)
    // Closed after the grace (1 s), not kept to the drain's bound (8 s): half of it is room for a busy machine.
    expect(Date.now() - started).toBeLessThan(DRAIN_BOUND_MS / 2)
    slow.destroy()
  })
})
