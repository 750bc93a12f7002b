/**
 * A zod schema whose JSON Schema conversion (Standard Schema's `~standard.jsonSchema`) is computed
 * once. The SDK memoises conversions per server instance, but stateless serving builds an instance
 * per request, so without this every MCP request converted the record schema again: 37 % of the
 * endpoint's CPU in the benchmark's profile. Validation is untouched (the same zod schema runs).
 *
 * The conversion is also made compact and portable (`portableJsonSchema`): tool schemas are sent to
 * every client on every tools/list and read by model providers with narrower JSON Schema support
 * than a validator's. The HTTP API's OpenAPI document is built from the same zod schemas elsewhere
 * (http/openapi.ts) and is not affected.
 */
import type { z } from 'zod'

type JsonSchemaOptions = { target: string; libraryOptions?: Record<string, unknown> }
type Converter = (options: JsonSchemaOptions) => Record<string, unknown>
type Json = Record<string, unknown>

export function withCachedJsonSchema<S extends z.ZodType>(schema: S): S {
  const standard = schema['~standard'] as z.ZodType['~standard'] & { jsonSchema: { input: Converter; output: Converter } }
  const cache = new Map<string, Record<string, unknown>>()
  const cached = (io: 'input' | 'output'): Converter => (options) => {
    const key = `${io}:${options.target}:${JSON.stringify(options.libraryOptions ?? {})}`
    let json = cache.get(key)
    if (json === undefined) cache.set(key, (json = Object.freeze(portableJsonSchema(standard.jsonSchema[io](options)))))
    return json
  }
  const patched = { ...standard, jsonSchema: { input: cached('input'), output: cached('output') } }
  return new Proxy(schema, { get: (target, property, receiver) => (property === '~standard' ? patched : Reflect.get(target, property, receiver)) })
}

// zod's bounds for z.int(): JavaScript's safe integers. They constrain nothing a JSON value can
// hold as an integer anyway, and were repeated on every count.
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs'])
// Formats whose zod pattern (a long regular expression) is shared through $defs rather than repeated.
const SHARED_FORMATS: Readonly<Record<string, string>> = { date: 'Date', 'date-time': 'DateTime' }

/**
 * The same constraints, written compactly and in the subset every client reads:
 * - a root `$ref` to a definition is replaced by that definition (clients look for the root's
 *   `properties`; the definition stays in `$defs` only if something else refers to it);
 * - a date or date-time pattern is defined once in `$defs` and referred to;
 * - an open object's `additionalProperties: {}` is written `true` (the MCP Inspector's portability
 *   check warns on a schema that carries no keyword), and `propertyNames: {type: string}` (true of
 *   every JSON object) is dropped;
 * - zod's safe-integer bounds are dropped; OpenAPI's `example` becomes JSON Schema's `examples`.
 */
export function portableJsonSchema(schema: Json): Json {
  const defs: Record<string, Json> = { ...((schema.$defs as Record<string, Json> | undefined) ?? {}) }
  let root: Json = { ...schema }
  delete root.$defs
  const rootRef = typeof root.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(root.$ref)?.[1] : undefined
  const definition = rootRef === undefined ? undefined : defs[rootRef]
  if (rootRef !== undefined && definition !== undefined) {
    const { $ref: _ref, ...siblings } = root
    root = { ...siblings, ...definition }
    delete defs[rootRef]
    // The definition stays if anything else (itself, another definition) still refers to it.
    if (JSON.stringify([root, defs]).includes(`"#/$defs/${rootRef}"`)) defs[rootRef] = definition
  }
  const shared: Record<string, Json> = {}
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (node === null || typeof node !== 'object') return node
    const out: Json = {}
    for (const [key, value] of Object.entries(node as Json)) {
      if (SAFE_INTEGER_BOUNDS[key] === value) continue
      if (key === 'propertyNames' && isOnlyStringType(value)) continue
      if (key === 'additionalProperties' && isEmptySchema(value)) out[key] = true
      else if (key === 'example') out.examples = [value]
      // In these the keys are names (of properties, of definitions), not keywords.
      else out[key] = SCHEMA_MAPS.has(key) ? mapValues(value as Record<string, unknown>, rewrite) : rewrite(value)
    }
    return shareFormat(out, shared, defs)
  }
  const compact = rewrite(root) as Json
  const allDefs = { ...(mapValues(defs, rewrite) as Record<string, Json>), ...shared }
  return Object.keys(allDefs).length === 0 ? compact : { ...compact, $defs: allDefs }
}

/** `{type: string, format: date, pattern}` (with any annotations) → `{$ref: '#/$defs/Date', …annotations}`. */
function shareFormat(node: Json, shared: Record<string, Json>, defs: Record<string, Json>): Json {
  const name = typeof node.format === 'string' ? SHARED_FORMATS[node.format] : undefined
  if (name === undefined || node.type !== 'string' || typeof node.pattern !== 'string') return node
  const { type, format, pattern, ...annotations } = node
  const definition = { type, format, pattern }
  // Another pattern for the same format (or a definition of that name from the schemas) stays inline.
  if (defs[name] !== undefined || (shared[name] !== undefined && shared[name].pattern !== pattern)) return node
  shared[name] = definition
  return { $ref: `#/$defs/${name}`, ...annotations }
}

const mapValues = (map: Record<string, unknown>, f: (value: unknown) => unknown) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]))
const isEmptySchema = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
const isOnlyStringType = (value: unknown) => JSON.stringify(value) === '{"type":"string"}'
