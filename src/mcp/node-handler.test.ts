/**
 * The 2025-era leg of the MCP handler builds a server per request: it is closed whatever happens to
 * the request (a failing connect or handleRequest must not leak it), and a close that fails is
 * reported, never left as an unhandled rejection nor put in place of the answer.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader } from '../core/api/reader.js'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { BATCH_REFUSAL, createMcpNodeHandler, MCP_PATH } from './node-handler.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}

const reported: string[] = []
let http: Server
let url: string
beforeAll(async () => {
  const records = new LiveRecords()
  records.swap(RecordIndex.build({ records: fixture }))
  const reader = new LocalRecordReader(
    records,
    new Catalogues({ requestsPerMinute: 0, contact: 'c@example.org', mcpPath: MCP_PATH }),
  )
  const handler = createMcpNodeHandler(reader, {
    version: '0.0.0',
    recordPage: (r) => r.url,
    log: { debug: (fields) => reported.push(JSON.stringify(fields)) },
  })
  // Written as the HTTP adapter's mount entry writes it, without its CORS, id and quota fields.
  http = createServer(
    (req, res) =>
      void handler.answer(req).then((answered) => {
        if (!('reply' in answered)) return answered.write(res)
        const { status, headers, body, length } = answered.reply
        res.writeHead(status, { ...headers, 'content-length': String(length) })
        res.end(Buffer.concat(body))
      }),
  )
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}${MCP_PATH}`
})
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())))

/** Every server instance the handler closes (or tries to), after doing what the real close does. */
let closed: McpServer[]
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
let realClose: () => Promise<void>
beforeAll(() => {
  realClose = McpServer.prototype.close
  process.on('unhandledRejection', onUnhandled)
})
afterAll(() => void process.off('unhandledRejection', onUnhandled))
const watchClose = (after: () => void = () => undefined) => {
  closed = []
  vi.spyOn(McpServer.prototype, 'close').mockImplementation(async function (this: McpServer) {
    closed.push(this)
    await realClose.call(this)
    after()
  })
}
afterEach(() => {
  vi.restoreAllMocks()
  reported.length = 0
  unhandled.length = 0
})

const post = async (body: object | object[]) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
/** Lets a rejection nobody handled reach the process's handler before the test looks. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('MCP handler, 2025-era requests', () => {
  it('answers and closes its server', async () => {
    watchClose()
    const res = await post(INITIALIZE)
    expect(res.status).toBe(200)
    expect((res.body.result as { serverInfo: { name: string } }).serverInfo.name).toBe('reference-records')
    expect(closed).toHaveLength(1)
  })

  it('closes the server when connect throws, and answers 500 with the request id', async () => {
    watchClose()
    const connecting: McpServer[] = []
    vi.spyOn(McpServer.prototype, 'connect').mockImplementation(async function (this: McpServer) {
      connecting.push(this)
      throw new Error('connect failed')
    })
    const res = await post(INITIALIZE)
    expect(res).toEqual({
      status: 500,
      body: {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32000, message: 'Internal error: the request could not be served' },
      },
    })
    expect(connecting).toHaveLength(1)
    expect(closed).toHaveLength(1)
    expect(closed[0]).toBe(connecting[0]) // the very server that failed to connect
    expect(reported).toEqual([JSON.stringify({ problem: 'connect failed' })])
  })

  it('closes the server when handling the request throws', async () => {
    watchClose()
    vi.spyOn(WebStandardStreamableHTTPServerTransport.prototype, 'handleRequest').mockRejectedValue(
      new Error('transport failed'),
    )
    const res = await post(INITIALIZE)
    expect(res.status).toBe(500)
    expect(closed).toHaveLength(1)
    expect(reported).toEqual([JSON.stringify({ problem: 'transport failed' })])
  })

  it('reports a close that rejects, keeps the answer, and leaves no unhandled rejection', async () => {
    watchClose(() => {
      throw new Error('close failed')
    })
    const res = await post(INITIALIZE)
    await settle()
    expect(res.status).toBe(200)
    expect(closed).toHaveLength(1)
    expect(reported).toEqual([JSON.stringify({ problem: 'close failed' })])
    expect(unhandled).toEqual([])
  })

  it('reports a close that throws at once (no promise at all) the same way', async () => {
    closed = []
    vi.spyOn(McpServer.prototype, 'close').mockImplementation(function (this: McpServer): Promise<void> {
      closed.push(this)
      throw new Error('close threw')
    })
    const res = await post(INITIALIZE)
    await settle()
    expect(res.status).toBe(200)
    expect(closed).toHaveLength(1)
    expect(reported).toEqual([JSON.stringify({ problem: 'close threw' })])
    expect(unhandled).toEqual([])
  })
})

describe('JSON-RPC batches', () => {
  it('are refused with one Invalid Request error before any call runs: a POST is one request, and counts once', async () => {
    const search = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_facts', arguments: { q: 'vitesse' } },
    })
    const buildsBefore = vi.spyOn(McpServer.prototype, 'connect')
    const res = await post([search(1), search(2), search(3)])
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: BATCH_REFUSAL } })
    expect(buildsBefore).not.toHaveBeenCalled()
    // A single request still goes through.
    expect((await post(INITIALIZE)).status).toBe(200)
  })
})
