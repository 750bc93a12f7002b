import { describe, expect, it } from 'vitest'
import { describeListenError } from './serve.js'

const http = { host: '10.9.9.9', port: 80, backlog: 4096, publicBaseUrl: undefined, trustProxy: undefined }
const error = (code: string) => Object.assign(new Error(`listen ${code}`), { code })

describe('describeListenError', () => {
  it('names the address and what to change, per cause', () => {
    expect(describeListenError(error('EACCES'), http)).toBe(
      'cannot listen on 10.9.9.9:80: permission denied (ports below 1024 need privileges); choose a port from 1024 with --port or PORT',
    )
    expect(describeListenError(error('EADDRNOTAVAIL'), http)).toBe(
      'cannot listen on 10.9.9.9:80: 10.9.9.9 is not an address of this machine; set --host or HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all',
    )
  })
  it('leaves other errors to the caller', () => {
    expect(describeListenError(error('EMFILE'), http)).toBeUndefined()
    expect(describeListenError(new Error('boom'), http)).toBeUndefined()
  })
})
