import { describe, expect, it } from 'vitest'
import { parseOptions } from './plan.js'

describe('bench options', () => {
  it('runs the servers on the bench’s own Node unless --node says otherwise', () => {
    expect(parseOptions([]).node).toBe('current')
    expect(parseOptions(['--node', '/opt/node/bin/node', '--quick']).node).toBe('/opt/node/bin/node')
    expect(parseOptions(['--quick', '--node', '20']).node).toBe('20')
  })

  it('refuses --node without a value, and unknown options', () => {
    expect(() => parseOptions(['--node'])).toThrow(/--node needs a value/)
    expect(() => parseOptions(['--node', '--quick'])).toThrow(/--node needs a value/)
    expect(() => parseOptions(['--nodes', '24'])).toThrow(/unknown option --nodes/)
  })

  it('keeps the other defaults', () => {
    const quick = parseOptions(['--quick'])
    expect(quick).toMatchObject({ quick: true, passes: 3, docs: false, profile: false })
    expect(parseOptions(['--passes', '5', '--node', '24'])).toMatchObject({ passes: 5, docs: true })
  })
})
