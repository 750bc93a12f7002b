/**
 * The tool schemas as clients receive them (tools/list over a real SDK client): compact, portable
 * (no schema without a constraining keyword, which the MCP Inspector's portability check warns on;
 * no root `$ref`), and still true: the tools' structured outputs validate against them.
 */
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import { CatalogueSchema, SearchEnvelopeSchema } from '../core/api/schemas.js'
import { FactSchema } from '../core/records/record.js'
import { LocalRecordReader } from '../core/api/reader.js'
import { FileRecordSource } from '../core/records/file-source.js'
import { loadInto } from '../core/snapshots/follow.js'
import { loadInProcess } from '../core/snapshots/load-snapshot.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { portableJsonSchema } from './cached-schema.js'
import { buildMcpServer } from './server.js'

const SAMPLE = new URL('../../data/records.json', import.meta.url).pathname
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
type Json = Record<string, any>

// A client passes the output schemas to its model on every connection: they weigh about 3 900 bytes
// together, and may grow by a field or two, not by a copy of a shared definition.
const MAX_OUTPUT_SCHEMA_BYTES = 4_500
/** The whole tools/list result a client passes its model on every connection (about 7 800 bytes, the MCP app's `_meta` included). */
const MAX_TOOLS_LIST_BYTES = 8_000

// The keywords that constrain an instance (the MCP Inspector's list, @modelcontextprotocol/inspector 2.12).
const CONSTRAINING = new Set(
  (
    'type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format maxItems minItems ' +
    'uniqueItems maxContains minContains maxProperties minProperties required dependentRequired allOf anyOf oneOf not items prefixItems ' +
    'contains additionalItems unevaluatedItems properties patternProperties additionalProperties unevaluatedProperties propertyNames ' +
    'dependentSchemas dependencies $ref $dynamicRef $recursiveRef'
  ).split(' '),
)
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas']
const SUBSCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const SUBSCHEMAS = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'additionalProperties',
  'unevaluatedProperties',
]

/** Paths of subschemas that accept anything without saying so (`{}` or annotations only). */
function unconstrained(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null) return []
  const found = Object.keys(node).some((k) => CONSTRAINING.has(k)) ? [] : [path || '(root)']
  const n = node as Json
  for (const key of SUBSCHEMA_MAPS)
    for (const [name, sub] of Object.entries<unknown>(n[key] ?? {}))
      found.push(...unconstrained(sub, `${path}.${key}.${name}`))
  for (const key of SUBSCHEMA_ARRAYS)
    (n[key] ?? []).forEach((sub: unknown, i: number) =>
      found.push(...unconstrained(sub, `${path}.${key}[${i}]`)),
    )
  for (const key of SUBSCHEMAS) if (key in n) found.push(...unconstrained(n[key], `${path}.${key}`))
  return found
}

let client: Client
let tools: Json[]
beforeAll(async () => {
  const records = new LiveRecords()
  await loadInto(new FileRecordSource(SAMPLE), records, loadInProcess)
  const server = await buildMcpServer(
    new LocalRecordReader(records, new Catalogues({ requestsPerMinute: 120, contact: 'test@example.org' })),
    { version: '0.0.0', recordPage: (r) => r.url },
  )
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  tools = (await client.listTools()).tools as Json[]
})
afterAll(() => client?.close())

describe('tool output schemas', () => {
  it(`weigh at most ${MAX_OUTPUT_SCHEMA_BYTES} bytes together, in a tools/list of at most ${MAX_TOOLS_LIST_BYTES}`, () => {
    const sizes: Record<string, number> = Object.fromEntries(
      tools.filter((t) => t.outputSchema).map((t) => [t.name, JSON.stringify(t.outputSchema).length]),
    )
    const total = Object.values(sizes).reduce((a, b) => a + b, 0)
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(MAX_OUTPUT_SCHEMA_BYTES)
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(MAX_TOOLS_LIST_BYTES)
  })

  it('are portable: an object root with its properties, no schema that constrains nothing, no dialect to guess', () => {
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema].filter((s) => s !== undefined)) {
        expect(schema.type, tool.name).toBe('object')
        expect(schema.properties, tool.name).toBeTypeOf('object')
        expect(schema.$ref, tool.name).toBeUndefined()
        expect(unconstrained(schema), tool.name).toEqual([])
        const text = JSON.stringify(schema)
        expect(text, tool.name).not.toContain('"additionalProperties":{}')
        expect(text, tool.name).not.toContain(String(Number.MAX_SAFE_INTEGER))
        expect(schema.$schema, tool.name).toBeUndefined()
      }
    }
    // A record's output schema names its fields and stays open: the kind-specific objects it leaves
    // undescribed (organization_data, video, …) are still allowed.
    const fact = tools.find((t) => t.name === 'get_fact')!.outputSchema
    expect(fact.additionalProperties).toBeUndefined()
    expect(Object.keys(fact.properties)).toEqual(
      expect.arrayContaining(['id', 'kind', 'title', 'text', 'url', 'sources', 'verified_at', 'modified_at']),
    )
  })

  it('still validate the structured outputs, and still refuse what the schemas refuse', async () => {
    // The server does not run its output schemas on each answer (cached-schema.ts): this holds every
    // tool's output to them, as zod schemas and as the JSON Schemas clients get.
    const zodOf: Record<string, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }> = {
      search_facts: SearchEnvelopeSchema,
      get_fact: FactSchema,
      get_catalogue: CatalogueSchema,
    }
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    const validators = Object.fromEntries(
      tools.filter((t) => t.outputSchema).map((t) => [t.name, ajv.compile(t.outputSchema)]),
    )
    const firstOf = async (kind: string) =>
      ((await client.callTool({ name: 'search_facts', arguments: { kind, limit: 1 } })) as Json)
        .structuredContent.results[0].id as string
    const calls: [string, Record<string, unknown>][] = [
      ['search_facts', { limit: 50 }],
      ['search_facts', { limit: 50, offset: 50 }],
      ['search_facts', { kind: 'offer', limit: 50 }],
      ['search_facts', { kind: 'organization' }],
      ['search_facts', { kind: 'person', limit: 50 }],
      ['search_facts', { q: 'stationner trottoir handicapé casque' }],
      ['get_fact', { id: await firstOf('fact') }],
      ['get_fact', { id: await firstOf('organization') }],
      ['get_fact', { id: await firstOf('offer') }],
      ['get_catalogue', {}],
    ]
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as Json
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBeFalsy()
      const parsed = zodOf[name]!.safeParse(result.structuredContent)
      expect(parsed.success, `${name} ${JSON.stringify(args)}: ${String(parsed.error)}`).toBe(true)
      expect(
        validators[name]!(result.structuredContent),
        `${name} ${JSON.stringify(args)}: ${ajv.errorsText(validators[name]!.errors)}`,
      ).toBe(true)
    }
    const record = (
      (await client.callTool({ name: 'get_fact', arguments: { id: await firstOf('fact') } })) as Json
    ).structuredContent
    for (const bad of [
      { verified_at: '2026-02-30' },
      { modified_at: '2026-01-01' },
      { kind: 'rule' },
      { id: 'x' },
      { sources: [{ url: 'x' }] },
      { title: 3 },
    ]) {
      expect(validators.get_fact!({ ...record, ...bad }), JSON.stringify(bad)).toBe(false)
    }
  })
})

describe('portableJsonSchema', () => {
  it('inlines a root $ref, keeping the definition when something else refers to it', () => {
    const node = { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } }
    expect(portableJsonSchema({ $ref: '#/$defs/Node', $defs: { Node: node } })).toEqual({
      ...node,
      $defs: { Node: node },
    })
    expect(portableJsonSchema({ $ref: '#/$defs/Leaf', $defs: { Leaf: { type: 'string' } } })).toEqual({
      type: 'string',
    })
  })
  it('keeps properties named like keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        example: { type: 'string' },
        maximum: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER },
      },
    }
    expect(portableJsonSchema(schema)).toEqual({
      type: 'object',
      properties: { example: { type: 'string' }, maximum: { type: 'integer' } },
    })
  })
})
