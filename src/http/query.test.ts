import { describe, expect, it } from 'vitest'
import { mentionsPoLive } from './admission.js'
import { isUnderPath, parseQuery } from './query.js'

describe('mentionsPoLive', () => {
  it.each([
    ['po_live=1', true],
    ['q=x&po_live=1', true],
    ['po_live', true],
    ['po_live=2&q=x', true],
    ['po%5Flive=1', true],
    ['po%5flive=1', true],
    ['q=po_live', false],
    ['xpo_live=1', false],
    ['po_lively=1', false],
    ['q=%ZZ', false],
    ['', false],
  ])('%s → %s', (query, expected) => expect(mentionsPoLive(query)).toBe(expected))
  it('is false without a query', () => expect(mentionsPoLive(undefined)).toBe(false))
})

describe('parseQuery', () => {
  it('keeps every value of a repeated name, decodes + and percent-encoding, skips empty parts', () => {
    expect([...parseQuery('q=s%C3%A9curit%C3%A9+routi%C3%A8re&&kind=fact&kind=lesson&flag')]).toEqual([
      ['q', ['sécurité routière']],
      ['kind', ['fact', 'lesson']],
      ['flag', ['']],
    ])
  })
  it('refuses malformed percent-encoding, naming the parameter', () => {
    expect(() => parseQuery('q=%E9')).toThrow('Query parameter "q" has invalid percent-encoding')
  })
})

describe('isUnderPath', () => {
  it.each([
    ['/mcp', true],
    ['/mcp?x=1', true],
    ['/mcp/x', true],
    ['/mcpx', false],
    ['/api/v1', false],
    ['/', false],
  ])('%s under /mcp → %s', (target, expected) => expect(isUnderPath(target, '/mcp')).toBe(expected))
})
