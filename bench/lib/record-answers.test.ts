import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerKey, recordAnswers, serviceFields } from './record-answers.js'

describe('recordAnswers', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.headers['if-none-match'] === '"e1"') return void res.writeHead(304, ['ETag', '"e1"']).end()
        const body = req.method === 'POST' ? `echo:${Buffer.concat(chunks).toString()}` : 'héllo'
        res.writeHead(200, ['X-Request-Id', 'abc', 'Vary', 'Origin', 'ETag', '"e1"']).end(body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("keeps the service's fields as sent, its status and its body bytes, once per distinct request", async () => {
    const answers = await recordAnswers(base, [
      { method: 'GET', path: '/a?x=1' },
      { method: 'GET', path: '/a?x=1' },
      { method: 'GET', path: '/a?x=1', headers: { 'If-None-Match': '"e1"' } },
      { method: 'POST', path: '/mcp', headers: { 'Content-Type': 'application/json' }, body: '{"id":1}' },
    ])
    expect(answers.map((a) => [a.key, a.status])).toEqual([
      [answerKey('GET', '/a?x=1', '', ''), 200],
      [answerKey('GET', '/a?x=1', '"e1"', ''), 304],
      [answerKey('POST', '/mcp', '', '{"id":1}'), 200],
    ])
    // Names, order and case as the server wrote them; Date, Connection, Keep-Alive and the chunked
    // Transfer-Encoding are Node's own, and the replay's Node adds them the same way.
    expect(answers[0]!.fields).toEqual(['X-Request-Id', 'abc', 'Vary', 'Origin', 'ETag', '"e1"'])
    expect(Buffer.from(answers[0]!.bodyBase64, 'base64').toString()).toBe('héllo')
    expect(Buffer.from(answers[1]!.bodyBase64, 'base64')).toHaveLength(0)
    expect(Buffer.from(answers[2]!.bodyBase64, 'base64').toString()).toBe('echo:{"id":1}')
  })

  it('drops only the fields Node adds to every answer', () => {
    const raw = [
      'Date',
      'x',
      'connection',
      'keep-alive',
      'Keep-Alive',
      'timeout=5',
      'Transfer-Encoding',
      'chunked',
    ]
    expect(serviceFields([...raw, 'Cache-Control', 'no-cache'])).toEqual(['Cache-Control', 'no-cache'])
  })
})
