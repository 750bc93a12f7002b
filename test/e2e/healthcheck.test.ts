/**
 * The image's health check (scripts/healthcheck.js, the Dockerfile's HEALTHCHECK) run as the
 * container runs it: `node scripts/healthcheck.js` with the service's HOST and PORT. Healthy (exit
 * 0) only when /readyz answers 200; a 503 (not ready, draining), no answer, or nothing listening is
 * unhealthy (exit 1) with one line on stderr saying why.
 */
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const SCRIPT = fileURLToPath(new URL('../../scripts/healthcheck.js', import.meta.url))

function healthcheck(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [SCRIPT],
      { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 },
      (err, _out, stderr) => resolve({ code: err === null ? 0 : Number(err.code ?? 1), stderr }),
    ),
  )
}

let service: TestServer
let notReady: Server
const port = (server: Server) => String((server.address() as AddressInfo).port)
beforeAll(async () => {
  service = await startTestServer()
  // Answers as a replica does before its first snapshot, or while it drains.
  notReady = createServer((req, res) => {
    res.writeHead(req.url === '/readyz' ? 503 : 404, {
      'retry-after': '5',
      'content-type': 'application/json',
    })
    res.end('{"error":{"code":"unavailable","message":"No records are loaded yet; retry shortly"}}')
  })
  await new Promise<void>((resolve) => notReady.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  await service?.close()
  await new Promise((resolve) => notReady?.close(resolve))
})

describe('scripts/healthcheck.js', () => {
  it('is healthy when /readyz answers 200, on the address the service listens on', async () => {
    const { port } = new URL(service.url)
    expect(await healthcheck({ HOST: '127.0.0.1', PORT: port })).toEqual({ code: 0, stderr: '' })
    // A wildcard address, as in the image (HOST=0.0.0.0), is asked on loopback.
    expect((await healthcheck({ HOST: '0.0.0.0', PORT: port })).code).toBe(0)
  })

  it('is unhealthy on a 503, saying what the service answered', async () => {
    const result = await healthcheck({ HOST: '0.0.0.0', PORT: port(notReady) })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/\/readyz answered 503: .*No records are loaded yet/)
  })

  it('is unhealthy when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const free = port(closed)
    await new Promise((resolve) => closed.close(resolve))
    const result = await healthcheck({ HOST: '127.0.0.1', PORT: free })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/did not answer/)
  })
})
