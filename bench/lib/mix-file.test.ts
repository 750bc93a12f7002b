import { describe, expect, it } from 'vitest'
import { luaString, mixShares, toLuaMix } from './mix-file.js'
import { frequentWords } from './mix.js'
import { mcpCall } from './mcp-mix.js'
import { nginxConfig } from './nginx.js'

describe('luaString', () => {
  it('escapes quotes, backslashes and control characters, and keeps UTF-8', () => {
    expect(luaString('a"b\\c\nd')).toBe('"a\\034b\\092c\\010d"')
    expect(luaString('arrêt')).toBe('"arrêt"')
  })
})

describe('toLuaMix', () => {
  it('writes one table entry per request, with headers and body', () => {
    const lua = toLuaMix([
      { method: 'GET', path: '/api/v1/facts?q=x&po_live=1', headers: { 'If-None-Match': '"v.1"' } },
      { method: 'POST', path: '/mcp', body: '{}' },
    ])
    expect(lua).toContain(
      '{ method = "GET", path = "/api/v1/facts?q=x&po_live=1", headers = { ["If-None-Match"] = "\\034v.1\\034" } },',
    )
    expect(lua).toContain('{ method = "POST", path = "/mcp", headers = {  }, body = "{}" },')
    expect(lua).toMatch(/^-- Generated[^\n]*\nreturn \{\n/)
  })
})

describe('mixShares', () => {
  it('gives each label its share', () => {
    const r = (label: 'search' | '307') => ({ method: 'GET' as const, path: '/', label, expect: 200 })
    expect(mixShares([r('search'), r('search'), r('search'), r('307')])).toEqual({
      search: 0.75,
      '307': 0.25,
    })
  })
})

describe('frequentWords', () => {
  it('keeps words of 5+ letters found in 2+ titles, most frequent first, accents folded for counting', () => {
    const titles = [
      'Vitesse en ville',
      'La vitesse sur autoroute',
      'Autoroute : péage',
      'Arrêt et ARRET',
      'Vitesse et arrêt',
    ]
    expect(frequentWords(titles, 5)).toEqual(['vitesse', 'arrêt', 'autoroute'])
  })
})

describe('mcpCall', () => {
  it('sends a bare tools/call in the 2025 era', () => {
    const c = mcpCall('legacy', 1, { q: 'vitesse' })
    expect(JSON.parse(c.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_facts', arguments: { q: 'vitesse' } },
    })
    expect(c.headers).not.toHaveProperty('Mcp-Method')
  })

  it('adds the 2026-07-28 envelope and the headers the SDK checks against it', () => {
    const c = mcpCall('modern', 2, { q: 'vitesse' })
    expect(JSON.parse(c.body).params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28')
    expect(c.headers).toMatchObject({
      'Mcp-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'search_facts',
    })
  })
})

describe('nginxConfig', () => {
  it('listens on loopback only, one worker, no access log, in the foreground', () => {
    const conf = nginxConfig({ prefix: '/tmp/p', root: '/tmp/p/www', file: 'body.json', port: 8105 })
    expect(conf).toContain('listen 127.0.0.1:8105')
    expect(conf).not.toMatch(/listen (\d+;|\*|0\.0\.0\.0|\[)/)
    expect(conf).toMatch(/worker_processes 1;[\s\S]*access_log off;/)
    expect(conf).toContain('daemon off;')
  })
})
