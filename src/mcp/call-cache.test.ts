import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { ToolCallCache, cacheableCall, type RawReply } from './call-cache.js'

const requestWith = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage
const JSON_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }
const reply = (text: string): RawReply => {
  const body = Buffer.from(text)
  return { status: 200, headers: { 'content-type': 'application/json' }, body: [body], length: body.length }
}
const sent = (kept: RawReply) => Buffer.concat(kept.body).toString()

describe('ToolCallCache.keyOf', () => {
  const cache = new ToolCallCache()
  const params = { name: 'search_facts', arguments: { q: 'vitesse' } }

  it('is the same for the same call and the header fields the SDK reads', () => {
    expect(cache.keyOf(requestWith({ ...JSON_HEADERS, 'x-request-id': 'a' }), params)).toBe(
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'x-request-id': 'b' }), { ...params }),
    )
  })

  it('tells calls apart by their params and by every header field the SDK reads', () => {
    const keys = [
      cache.keyOf(requestWith(JSON_HEADERS), params),
      cache.keyOf(requestWith(JSON_HEADERS), { ...params, arguments: { q: 'priorité' } }),
      cache.keyOf(requestWith({ ...JSON_HEADERS, accept: 'application/json' }), params),
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28' }), params),
      // An empty field is not an absent one.
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'mcp-name': '' }), params),
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'mcp-name': '-' }), params),
      // A value cannot pass for two fields.
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'mcp-method': 'tools/call\n"x"' }), params),
      cache.keyOf(requestWith({ ...JSON_HEADERS, 'mcp-method': 'tools/call', 'mcp-name': 'x' }), params),
    ]
    expect(new Set(keys).size).toBe(keys.length)
  })
})

describe('ToolCallCache.get', () => {
  it("sends the SDK's bytes with each request's own id, never another's", () => {
    const cache = new ToolCallCache()
    const snapshot = {}
    cache.remember(
      snapshot,
      'k',
      7,
      reply('{"result":{"content":[{"type":"text","text":"\\"id\\":7"}]},"jsonrpc":"2.0","id":7}'),
    )
    const kept = cache.get(snapshot, 'k', 'call-8')!
    expect(sent(kept)).toBe(
      '{"result":{"content":[{"type":"text","text":"\\"id\\":7"}]},"jsonrpc":"2.0","id":"call-8"}',
    )
    expect(kept.length).toBe(Buffer.byteLength(sent(kept)))
    expect(cache.get(snapshot, 'other', 8)).toBeUndefined()
    expect(cache.get({}, 'k', 8)).toBeUndefined() // another snapshot keeps its own answers
  })

  it('keeps nothing it cannot take the id out of, nor a failure', () => {
    const cache = new ToolCallCache()
    const snapshot = {}
    cache.remember(snapshot, 'no id', 7, reply('{"jsonrpc":"2.0","result":{}}'))
    cache.remember(snapshot, 'error', 7, { ...reply('{"jsonrpc":"2.0","id":7,"error":{}}'), status: 500 })
    expect(cache.get(snapshot, 'no id', 1)).toBeUndefined()
    expect(cache.get(snapshot, 'error', 1)).toBeUndefined()
  })
})

describe('cacheableCall', () => {
  it('takes one tools/call request with an id, nothing else', () => {
    expect(cacheableCall({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).toEqual({
      id: 1,
      params: {},
    })
    expect(cacheableCall({ jsonrpc: '2.0', method: 'tools/call', params: {} })).toBeUndefined()
    expect(cacheableCall([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }])).toBeUndefined()
    expect(cacheableCall({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toBeUndefined()
  })
})
