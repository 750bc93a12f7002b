import { describe, expect, it } from 'vitest'
import { mountReplyFields } from './mount-reply.js'

const reply = (headers: Record<string, string>, length = 2) => ({
  status: 200,
  headers,
  body: [Buffer.from('{}')],
  length,
})

describe('mountReplyFields', () => {
  it("sends a reply's own fields, then its length, flat", () => {
    const fields = mountReplyFields(reply({ 'content-type': 'application/json' }, 22))
    expect(fields.flat).toEqual(['content-type', 'application/json', 'content-length', '22'])
  })

  it('gives each reply of a kept answer its own length, the fields being listed once', () => {
    const headers = { 'content-type': 'application/json' }
    expect(mountReplyFields(reply(headers, 9)).flat).toEqual([
      'content-type',
      'application/json',
      'content-length',
      '9',
    ])
    expect(mountReplyFields(reply(headers, 10)).flat).toEqual([
      'content-type',
      'application/json',
      'content-length',
      '10',
    ])
  })

  it('replaces a length the reply gives itself, in its place', () => {
    const fields = mountReplyFields(reply({ 'content-length': '99', connection: 'close' }, 2))
    expect(fields.flat).toEqual(['content-length', '2', 'connection', 'close'])
  })
})
