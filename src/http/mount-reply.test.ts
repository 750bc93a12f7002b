import { describe, expect, it } from 'vitest'
import { mountReplyFields } from './mount-reply.js'

const reply = (headers: Record<string, string>, length = 2) => ({ status: 200, headers, body: [Buffer.from('{}')], length })

describe('mountReplyFields', () => {
  it("sends a reply's own fields, then its length, flat and joined alike", () => {
    const fields = mountReplyFields(reply({ 'content-type': 'application/json' }, 22))
    expect(fields.flat).toEqual(['content-type', 'application/json', 'content-length', '22'])
    expect(fields.text).toBe('content-type: application/json\r\ncontent-length: 22\r\n')
    expect(fields.framing).toBe(false)
  })

  it('gives each reply of a kept answer its own length, the fields being joined once', () => {
    const headers = { 'content-type': 'application/json' }
    expect(mountReplyFields(reply(headers, 9)).text).toBe('content-type: application/json\r\ncontent-length: 9\r\n')
    expect(mountReplyFields(reply(headers, 10)).text).toBe('content-type: application/json\r\ncontent-length: 10\r\n')
  })

  it('replaces a length the reply gives itself, in its place, and marks a field that frames the connection', () => {
    const fields = mountReplyFields(reply({ 'content-length': '99', connection: 'close' }, 2))
    expect(fields.flat).toEqual(['content-length', '2', 'connection', 'close'])
    expect(fields.framing).toBe(true)
  })
})
