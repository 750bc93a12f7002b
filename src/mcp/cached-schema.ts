/**
 * A zod schema whose JSON Schema conversion (Standard Schema's `~standard.jsonSchema`) is computed
 * once. The SDK memoises conversions per server instance, but stateless serving builds an instance
 * per request, so without this every MCP request converted the record schema again: 37 % of the
 * endpoint's CPU in the benchmark's profile. Validation is untouched (the same zod schema runs).
 */
import type { z } from 'zod'

type JsonSchemaOptions = { target: string; libraryOptions?: Record<string, unknown> }
type Converter = (options: JsonSchemaOptions) => Record<string, unknown>

export function withCachedJsonSchema<S extends z.ZodType>(schema: S): S {
  const standard = schema['~standard'] as z.ZodType['~standard'] & { jsonSchema: { input: Converter; output: Converter } }
  const cache = new Map<string, Record<string, unknown>>()
  const cached = (io: 'input' | 'output'): Converter => (options) => {
    const key = `${io}:${options.target}:${JSON.stringify(options.libraryOptions ?? {})}`
    let json = cache.get(key)
    if (json === undefined) cache.set(key, (json = Object.freeze(standard.jsonSchema[io](options))))
    return json
  }
  const patched = { ...standard, jsonSchema: { input: cached('input'), output: cached('output') } }
  return new Proxy(schema, { get: (target, property, receiver) => (property === '~standard' ? patched : Reflect.get(target, property, receiver)) })
}
