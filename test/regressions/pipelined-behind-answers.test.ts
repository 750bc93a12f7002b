/**
 * Found by the fuzz suite once it sent hostile requests behind well-formed ones on one connection:
 * - a CONNECT pipelined behind GETs was answered at once and the connection ended, so the GETs
 *   queued behind the first lost their answers;
 * - a request with `Expect: 100-continue` pipelined behind another got Node's interim
 *   "100 Continue" written inside its own response, between its head and its body (Node buffers the
 *   interim answer, then puts the response's head in front of it), which no client can parse.
 * - the same with a streamed answer in flight (the NDJSON download): Node stops relaying the socket's
 *   'drain' to the response once it hands the socket over for CONNECT, so the stream stalled.
 * Every request before them gets its whole answer, in order, and nothing is written inside an answer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rawExchange } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

let server: TestServer
let port: number
beforeAll(async () => {
  // The bundled sample: its download (~0.5 MB) is larger than a socket's buffer, as in production.
  server = await startTestServer({
    RECORDS_FILE: new URL('../../data/records.json', import.meta.url).pathname,
  })
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close())

const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`
const CATALOGUE = get('/api/v1/?po_live=1')
const SEARCH = get('/api/v1/facts?q=vitesse&po_live=1')

it.each([1, 2, 3])(
  '%i GET(s) then CONNECT: every GET answered, then 405, then the connection closes',
  async (gets) => {
    const bytes = [
      ...Array.from({ length: gets }, (_, i) => (i % 2 === 0 ? CATALOGUE : SEARCH)),
      'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n',
    ].join('')
    const { responses, closedByServer, leftover } = await rawExchange(port, bytes)
    expect(responses.map((r) => r.status)).toEqual([...Array.from({ length: gets }, () => 200), 405])
    expect(responses.at(-1)!.json.error.code).toBe('method_not_allowed')
    expect(closedByServer).toBe(true)
    expect(leftover).toHaveLength(0)
  },
)

it('the whole-catalogue download (a streamed answer) then CONNECT: the download arrives whole, then 405', async () => {
  const { responses, leftover } = await rawExchange(
    port,
    `${get('/api/v1/facts.ndjson')}CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n`,
  )
  expect(responses.map((r) => r.status)).toEqual([200, 405])
  expect(responses[0]!.text.trim().split('\n')).toHaveLength(264)
  expect(leftover).toHaveLength(0)
})

// Found by the long fuzz run: an MCP upload over the size limit was refused with Connection: close
// without its body being read, and closing a connection with unread bytes makes the kernel reset it,
// throwing away the download still being sent before it.
it('the download, then an MCP upload over the size limit: the download whole, then 413, and the connection stays', async () => {
  const big = 'x'.repeat(70_000)
  const upload = `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${big.length}\r\n\r\n${big}`
  const { responses, leftover, closedByServer } = await rawExchange(
    port,
    `${get('/api/v1/facts.ndjson')}${upload}${CATALOGUE}`,
  )
  expect(responses.map((r) => r.status)).toEqual([200, 413, 200])
  expect(responses[0]!.text.trim().split('\n')).toHaveLength(264)
  expect(responses[1]!.json.error.message).toMatch(/must not exceed 65536 bytes/)
  expect(closedByServer).toBe(false)
  expect(leftover).toHaveLength(0)
})

it('an upload declared over 1 MiB is not read: 413 and the connection closes', async () => {
  const { responses, closedByServer } = await rawExchange(
    port,
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{',
  )
  expect(responses.map((r) => r.status)).toEqual([413])
  expect(responses[0]!.headers.connection).toBe('close')
  expect(closedByServer).toBe(true)
})

it('a request with Expect: 100-continue behind others: no interim answer inside a response', async () => {
  const bytes = CATALOGUE + SEARCH + get('/api/v1/facts?q=permis&po_live=1', 'Expect: 100-continue\r\n')
  const { responses, leftover } = await rawExchange(port, bytes)
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200])
  expect(responses[2]!.json.results.length).toBeGreaterThan(0) // the body parses: nothing was written inside it
  expect(leftover).toHaveLength(0)
})

it('a request with Expect: 100-continue at the head of its connection still gets its 100 first', async () => {
  const { responses, leftover } = await rawExchange(
    port,
    get('/api/v1/?po_live=1', 'Expect: 100-continue\r\n'),
  )
  expect(responses.map((r) => r.status)).toEqual([100, 200])
  expect(leftover).toHaveLength(0)
})
