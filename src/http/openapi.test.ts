import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildOpenApiDocument } from './openapi.js'

describe('buildOpenApiDocument', () => {
  // zod's global registry is shared by the whole process (and by every copy of zod in it).
  const intruders: z.core.$ZodType[] = []
  const displaced = new Map<string, z.core.$ZodType>()
  const register = (schema: z.core.$ZodType, id: string) => {
    const current = z.globalRegistry._idmap.get(id)
    if (current !== undefined) displaced.set(id, current)
    z.globalRegistry.add(schema, { id })
    intruders.push(schema)
  }
  afterEach(() => {
    for (const schema of intruders.splice(0)) z.globalRegistry.remove(schema)
    for (const [id, schema] of displaced) z.globalRegistry._idmap.set(id, schema)
    displaced.clear()
  })

  it('takes its components from its own registry: nothing registered elsewhere in zod reaches it', () => {
    const before = JSON.stringify(buildOpenApiDocument(undefined, 'contact@example.org'))
    // Another module's schema under one of our ids, and one JSON Schema cannot express (it would make the conversion throw).
    register(z.strictObject({ injected: z.literal(true) }), 'Error')
    register(z.date(), 'Intruder')
    const after = buildOpenApiDocument(undefined, 'contact@example.org')
    expect(JSON.stringify(after)).toBe(before)
    expect(Object.keys((after.components as { schemas: object }).schemas)).not.toContain('Intruder')
  })
})
