import { describe, expect, it } from 'vitest'
import { SUPPORTED_NODE_LINES, nodeSupport, resolveServerNode } from './server-node.js'

describe('the servers’ Node', () => {
  it('is this process’s for `current` and for this major version (nothing fetched)', () => {
    const here = { path: process.execPath, version: process.version }
    expect(resolveServerNode('current')).toEqual(here)
    expect(resolveServerNode(process.version.slice(1).split('.')[0]!)).toEqual(here)
  })

  it('runs a binary given by path to learn its version', () => {
    expect(resolveServerNode(process.execPath)).toEqual({ path: process.execPath, version: process.version })
  })

  it('refuses a path that is not a Node binary, naming the option', () => {
    expect(() => resolveServerNode('/nonexistent/node')).toThrow(/--node \/nonexistent\/node/)
  })
})

describe('nodeSupport', () => {
  it('names the supported lines, and Node 20 as end of life', () => {
    expect(nodeSupport('v26.10.0')).toBe('supported')
    expect(nodeSupport('v24.21.0')).toBe('supported')
    expect(nodeSupport('v20.20.2')).toBe('end of life')
    expect(nodeSupport('v22.22.0')).toBe('not supported')
    expect(SUPPORTED_NODE_LINES).toEqual([24, 26])
  })
})
