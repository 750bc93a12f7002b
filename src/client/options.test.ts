import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RecordsClient } from './client.js'
import { detectMode, resolveOptions } from './options.js'

describe('resolveOptions', () => {
  it('defaults to the local service and 3 retries', () => {
    const o = resolveOptions({})
    expect(o.baseUrl.href).toBe('http://127.0.0.1:8080/api/v1')
    expect(o.maxRetries).toBe(3)
    expect(o.mode).toBe('script')
    expect(o.userAgent).toMatch(/^reference-records-client \(Node\.js /)
  })

  it('ignores a trailing slash of baseUrl', () => {
    expect(new RecordsClient({ baseUrl: 'https://records.example.org/api/v1/' }).baseUrl).toBe(
      'https://records.example.org/api/v1',
    )
  })

  it('refuses a baseUrl that is not http(s) or carries a query', () => {
    expect(() => resolveOptions({ baseUrl: 'ftp://records.example.org/api/v1' })).toThrow(
      'RecordsClient: baseUrl must be an http(s) URL',
    )
    expect(() => resolveOptions({ baseUrl: 'https://records.example.org/api/v1?x=1' })).toThrow(
      'must not carry a query',
    )
    expect(() => resolveOptions({ maxRetries: -1 })).toThrow(
      'RecordsClient: maxRetries must be a whole number ≥ 0, got -1',
    )
  })
})

describe('detectMode', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('is browser when window and document exist', () => {
    expect(detectMode()).toBe('script')
    vi.stubGlobal('window', {})
    expect(detectMode()).toBe('script')
    vi.stubGlobal('document', {})
    expect(detectMode()).toBe('browser')
    expect(resolveOptions({}).mode).toBe('browser')
    expect(resolveOptions({ mode: 'script' }).mode).toBe('script')
  })
})

describe('browser bundle', () => {
  it('imports no zod and no Node module: only types leave src/client', () => {
    const dir = new URL('./', import.meta.url)
    const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    const offenders: string[] = []
    for (const file of sources) {
      const text = readFileSync(new URL(file, dir), 'utf8')
      // Every import or re-export that is not `import type` / `export type` stays in the emitted JavaScript.
      for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
        if (!match[1]!.startsWith('./')) offenders.push(`${file}: ${match[1]}`)
      }
    }
    expect(sources.length).toBeGreaterThan(5)
    expect(offenders).toEqual([])
  })
})
