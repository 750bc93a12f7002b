import { describe, expect, it } from 'vitest'
import { composedHeads, fieldText, rawHeads, sendsLikeWriteHead, type RawHeads } from './raw-head.js'

describe('fieldText', () => {
  it('joins fields as a head writes them, in order', () => {
    expect(fieldText(['etag', '"x"', 'content-length', '2'])).toBe('etag: "x"\r\ncontent-length: 2\r\n')
    expect(fieldText([])).toBe('')
  })
})

describe('rawHeads', () => {
  it('is offered on this Node: composed heads are sent as writeHead sends them', async () => {
    expect(await rawHeads(5_000)).toBeDefined()
  })

  it('finds a head that differs from what writeHead sends (here the keep-alive timeout)', async () => {
    expect(await sendsLikeWriteHead(composedHeads(5_000), 5_000)).toBe(true)
    expect(await sendsLikeWriteHead(composedHeads(7_000), 5_000)).toBe(false)
  })

  it('counts a response that never finishes as a difference, within its bound', async () => {
    const silent: RawHeads = { usable: () => true, send: () => undefined }
    const started = Date.now()
    expect(await sendsLikeWriteHead(silent, 5_000, 100)).toBe(false)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('refuses responses it cannot compose for, so they go through writeHead', async () => {
    const refusing: RawHeads = { ...composedHeads(5_000), usable: () => false }
    expect(await sendsLikeWriteHead(refusing, 5_000)).toBe(false)
  })
})
