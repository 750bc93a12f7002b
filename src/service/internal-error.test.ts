/**
 * A failure nobody planned for (a bug, not an ApiError) answers `500 internal_error` with the
 * contract's body and headers, and nothing of the failure itself: its message, stack and internals
 * go to the log only. The real service, with a records object whose snapshot cannot be read.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../config.js'
import { createService, type Service } from './service.js'
import { loadInProcess } from '../core/snapshots/load-snapshot.js'
import { send } from '../../test/support/in-process.js'

const SMALL_FIXTURE = new URL('../../test/fixtures/records.small.json', import.meta.url).pathname
const SECRET = 'cannot read /srv/records/.internal-index (uid 1000)'

const logged: Record<string, unknown>[] = []
let service: Service
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') logged.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  service = await createService(loadConfig({ RECORDS_FILE: SMALL_FIXTURE }), {
    logger: pino({ level: 'error' }, sink),
    load: loadInProcess,
  })
  // Every read of the served snapshot now fails the way a bug would: a TypeError, not an ApiError.
  vi.spyOn(service.records, 'current', 'get').mockImplementation(() => {
    throw new TypeError(SECRET)
  })
})
afterAll(async () => {
  vi.restoreAllMocks()
  await service.close()
})

describe('500 internal_error', () => {
  it.each([
    '/api/v1/?po_live=1',
    '/api/v1/facts?q=vitesse&po_live=1',
    '/api/v1/facts/fait-fab1ae2fa3566c3d?po_live=1',
  ])('GET %s: the error body, CORS and nosniff, and no internals', async (url) => {
    const res = await send(service.app, { target: url, headers: { origin: 'https://reuser.example' } })
    expect(res.status).toBe(500)
    expect(res.text).toBe('{"error":{"code":"internal_error","message":"Internal server error"}}')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers.etag).toBeUndefined()
    const everything = JSON.stringify({ headers: res.headers, body: res.text })
    expect(everything).not.toContain('.internal-index')
    expect(everything).not.toContain('TypeError')
    expect(everything).not.toMatch(/\bat \S+ \(|\.ts:\d+/) // no stack frame
  })

  it('logs the real cause, with its stack, for the operator', async () => {
    logged.length = 0
    const res = await send(service.app, {
      target: '/api/v1/?po_live=1',
      headers: { 'x-request-id': 'req-500' },
    })
    expect(res.status).toBe(500)
    const line = logged.find((l) => l.msg === 'unhandled error')
    expect(line).toMatchObject({ level: 50, reqId: 'req-500', err: { type: 'TypeError', message: SECRET } })
    expect((line!.err as { stack: string }).stack).toContain('TypeError: ' + SECRET)
  })

  it('a fault while admitting a request (MCP reads the snapshot there) is a 500 in MCP’s own terms, logged with its cause', async () => {
    logged.length = 0
    const res = await send(service.app, {
      method: 'POST',
      target: '/mcp',
      headers: {
        'x-request-id': 'req-admit',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    })
    expect(res.status).toBe(500)
    expect(res.headers['x-request-id']).toBe('req-admit')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    // Answered by the MCP endpoint's entry, in its error body (a JSON-RPC error echoing the call's id).
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { message: 'Internal server error' } })
    expect(res.text).not.toContain('.internal-index')
    const line = logged.find((l) => l.msg === 'admission failed')
    expect(line).toMatchObject({ level: 50, reqId: 'req-admit', err: { type: 'TypeError', message: SECRET } })
  })
})
