import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { component, componentRegistry } from './components.js'
import { FactSchema } from './records/record.js'

describe('component', () => {
  it('names a schema in the registry of components, and in zod metadata for the MCP SDK', () => {
    expect(componentRegistry.get(FactSchema)?.id).toBe('Fact')
    expect(z.globalRegistry.get(FactSchema)?.id).toBe('Fact')
  })

  it('refuses a second schema under a name already given, which would replace the first unseen', () => {
    expect(() => component(z.string(), { id: 'Fact' })).toThrow(
      'schemas: the component "Fact" is defined twice',
    )
    expect(componentRegistry._idmap.get('Fact')).toBe(FactSchema)
  })
})
