import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { methodRefusals, refuseOtherMethods } from './methods.js'

describe('methodRefusals', () => {
  const app = Fastify()
  refuseOtherMethods(app, ['/api/v1/facts', '/api/v1/facts/:id'])
  const refusals = methodRefusals(app)

  it('never refuses a read method, on a registered path or any other', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      for (const path of ['/api/v1/facts', '/api/v1/facts/abc', '/elsewhere'])
        expect(refusals.refuses(method, path)).toBe(false)
  })

  it('refuses any other method on the registered paths only', () => {
    expect(refusals.refuses('POST', '/api/v1/facts')).toBe(true)
    expect(refusals.refuses('DELETE', '/api/v1/facts/abc')).toBe(true)
    expect(refusals.refuses('POST', '/api/v1/facts/abc/more')).toBe(false)
    expect(refusals.refuses('POST', '/elsewhere')).toBe(false)
  })

  it('refuses a method a later path does not allow, though an earlier one did', () => {
    const other = Fastify()
    const later = methodRefusals(other)
    later.add('/a', ['GET', 'POST'])
    later.add('/b', ['GET'])
    expect(later.refuses('POST', '/a')).toBe(false)
    expect(later.refuses('POST', '/b')).toBe(true)
    expect(later.refuses('GET', '/b')).toBe(false)
  })
})
