/**
 * Issue 10.8: every aborted /mcp upload wrote an error-level line with a stack trace (200 of 200):
 * a way for any client to fill the logs and bury real errors. Client faults are logged at debug,
 * without a stack, and at most a few of a kind per minute.
 */
import { connect } from 'node:net'
import { expect, it } from 'vitest'
import { listeningUrl, spawnCli } from '../support/spawn-service.js'
import { SMALL_FIXTURE } from '../support/test-server.js'

async function abortedUpload(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((r) => socket.once('connect', r))
  socket.write(
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":"2.0",',
  )
  await new Promise((r) => setTimeout(r, 20))
  socket.destroy()
}

const malformed = async (port: number) => {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((r) => socket.once('connect', r))
  socket.end('GET /api/v1/ HTTP/9.9\r\nHost: localhost\r\n\r\n')
}

it.each(['info', 'debug'])(
  'at LOG_LEVEL=%s, 60 aborted uploads and 60 malformed requests write no error, no stack, and few lines',
  async (level) => {
    const service = spawnCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
      LOG_LEVEL: level,
      RECORDS_FILE: SMALL_FIXTURE,
    })
    const port = Number(new URL(await listeningUrl(service)).port)
    for (let i = 0; i < 60; i++) await abortedUpload(port)
    for (let i = 0; i < 60; i++) await malformed(port)
    await new Promise((r) => setTimeout(r, 200))
    service.child.kill('SIGTERM')
    expect(await service.exited).toBe(0)
    const lines = service
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown })
    expect(lines.filter((l) => l.level >= 40)).toEqual([])
    expect(service.stdout()).not.toContain('"stack"')
    expect(service.stderr()).toBe('')
    const faults = lines.filter(
      (l) => l.msg === 'mcp request rejected' || l.msg === 'request refused by the HTTP parser',
    )
    expect(faults.length).toBeLessThanOrEqual(level === 'debug' ? 20 : 0)
  },
  30_000,
)
