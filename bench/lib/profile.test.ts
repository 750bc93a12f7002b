import { describe, expect, it } from 'vitest'
import { frameName, originOf, summariseProfile, type CpuProfile } from './profile.js'

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber })

// A tiny profile: 4 samples in the service, 3 in fastify, 2 in GC, 1 idle; each sample 1 ms apart.
const PROFILE: CpuProfile = {
  startTime: 0,
  nodes: [
    { id: 1, callFrame: frame('(root)', '') },
    { id: 2, callFrame: frame('sendJson', 'file:///work/main/dist/http/conditional.js', 20) },
    { id: 3, callFrame: frame('serialize', 'file:///work/main/node_modules/fastify/lib/reply.js', 99) },
    { id: 4, callFrame: frame('(garbage collector)', '') },
    { id: 5, callFrame: frame('(idle)', '') },
  ],
  samples: [2, 2, 3, 2, 3, 4, 2, 3, 4, 5],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
}

describe('summariseProfile', () => {
  it('adds self time per function and per origin, largest first', () => {
    const s = summariseProfile(PROFILE, 2)
    expect(s.totalMs).toBe(10)
    expect(s.functions).toEqual([
      { name: 'sendJson (dist/http/conditional.js:21)', selfMs: 4, share: 0.4 },
      { name: 'serialize (fastify/lib/reply.js:100)', selfMs: 3, share: 0.3 },
    ])
    expect(s.origins.map((o) => [o.name, o.selfMs])).toEqual([
      ['service', 4],
      ['npm:fastify', 3],
      ['(garbage collector)', 2],
      ['(idle)', 1],
    ])
  })

  it('counts only samples inside the window', () => {
    // Samples at 1…10 ms: the window 3–5 ms keeps samples 3, 4 and 5 (ids 3, 2, 3).
    const s = summariseProfile(PROFILE, 5, { fromUs: 3000, toUs: 5000 })
    expect(s.totalMs).toBe(3)
    expect(s.origins.map((o) => [o.name, o.selfMs])).toEqual([
      ['npm:fastify', 2],
      ['service', 1],
    ])
  })
})

describe('originOf', () => {
  it('tells the service, packages, Node and V8 apart', () => {
    expect(originOf(frame('x', 'file:///w/node_modules/@fastify/cors/index.js'))).toBe('npm:@fastify/cors')
    expect(originOf(frame('x', 'node:internal/http'))).toBe('node')
    expect(originOf(frame('x', 'file:///w/src/server.ts'))).toBe('service')
    expect(originOf(frame('(program)', ''))).toBe('(program)')
    expect(originOf(frame('JSONStringify', ''))).toBe('native')
  })
})

describe('frameName', () => {
  it('names anonymous functions', () => {
    expect(frameName(frame('', 'node:events', 9))).toBe('(anonymous) (node:events:10)')
  })
})
