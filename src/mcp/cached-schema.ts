/**
 * A zod schema whose JSON Schema conversion (Standard Schema's `~standard.jsonSchema`) is computed
 * once. The SDK memoises conversions per server instance, but stateless serving builds an instance
 * per request, so without this every MCP request converted the record schema again: 37 % of the
 * endpoint's CPU in the benchmark's profile. Input validation is untouched (the same zod schema runs).
 *
 * The conversion is also made compact and portable (`portableJsonSchema`): tool schemas are sent to
 * every client on every tools/list and read by model providers with narrower JSON Schema support
 * than a validator's. The HTTP API's OpenAPI document is built from the same zod schemas elsewhere
 * (http/openapi.ts) and is not affected.
 *
 * An output schema is not run on each answer (its `~standard.validate` gives the value back): the
 * SDK checks every tool's structured content against its output schema and throws the result away,
 * and what the tools return is the service's own records, validated when they were published, in
 * envelopes the API builds. That check was most of a search's cost through MCP: 20–35 ms of the
 * serving thread for 50 results (zod parsing each record again), against 12 ms for the search
 * itself at 1 000 000 records (issue 43, item 3). The tests hold every tool's output to its schema
 * instead (cached-schema.test.ts: the zod schema and the published JSON Schema). Input schemas
 * still validate: their values come from clients.
 */
import type { z } from 'zod'

type JsonSchemaOptions = { target: string; libraryOptions?: Record<string, unknown> }
type Converter = (options: JsonSchemaOptions) => Record<string, unknown>
type Json = Record<string, unknown>

/** 'input' keeps the schema whole; an output schema is made terse (`terseOutputSchema`), keeping the named definitions whole. */
export type SchemaUse = 'input' | { output: TerseOptions }

/**
 * Output schemas are made terse: they were 70 % of a tools/list that every client sends a model on
 * every connection, and what a client needs of them is the shape of the result, not its prose.
 */
export function withCachedJsonSchema<S extends z.ZodType>(schema: S, use: SchemaUse = 'input'): S {
  const standard = schema['~standard'] as z.ZodType['~standard'] & {
    jsonSchema: { input: Converter; output: Converter }
  }
  const cache = new Map<string, Record<string, unknown>>()
  const cached =
    (io: 'input' | 'output'): Converter =>
    (options) => {
      const key = `${io}:${options.target}:${JSON.stringify(options.libraryOptions ?? {})}`
      let json = cache.get(key)
      if (json === undefined) {
        const portable = portableJsonSchema(standard.jsonSchema[io](options))
        cache.set(
          key,
          (json = Object.freeze(use === 'input' ? portable : terseOutputSchema(portable, use.output))),
        )
      }
      return json
    }
  const patched = {
    ...standard,
    jsonSchema: { input: cached('input'), output: cached('output') },
    ...(use === 'input' ? {} : { validate: trusted }),
  }
  return new Proxy(schema, {
    get: (target, property, receiver) =>
      property === '~standard' ? patched : Reflect.get(target, property, receiver),
  })
}

/** Standard Schema's validation of an output built by the service: the value, as it is. */
const trusted = (value: unknown) => ({ value })

// zod's bounds for z.int(): JavaScript's safe integers. They constrain nothing a JSON value can
// hold as an integer anyway, and were repeated on every count.
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
}
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
])
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
 * - zod's safe-integer bounds are dropped; OpenAPI's `example` becomes JSON Schema's `examples`;
 * - `$schema` is dropped: MCP reads a schema without one as JSON Schema 2020-12, which these are.
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
      else
        out[key] = SCHEMA_MAPS.has(key)
          ? mapValues(value as Record<string, unknown>, rewrite)
          : rewrite(value)
    }
    return shareFormat(out, shared, defs)
  }
  // 2020-12 is the dialect MCP assumes for a schema without `$schema` (it was 52 bytes per schema).
  const { $schema: _dialect, ...compact } = rewrite(root) as Json
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
  if (defs[name] !== undefined || (shared[name] !== undefined && shared[name].pattern !== pattern))
    return node
  shared[name] = definition
  return { $ref: `#/$defs/${name}`, ...annotations }
}

const mapValues = (map: Record<string, unknown>, f: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]))
const isEmptySchema = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
const isOnlyStringType = (value: unknown) => JSON.stringify(value) === '{"type":"string"}'

/**
 * An output schema without its prose and its detail: descriptions below the root, examples, `$schema`
 * (2020-12 is MCP's default dialect), length and range bounds (the server's results always meet them)
 * and `additionalProperties: false` go; a pattern beside a `format`
 * goes (the format says the same: zod's date-time pattern alone was 300 bytes); definitions not named
 * in `keep` are not described (a property holding one is left out: a video, an address; the OpenAPI
 * document describes them), and objects nested deeper than `depth` below the root keep only their type. What
 * is left is still true of every result (it only allows more), and types, required properties, enums
 * and bounds of what is kept stay. Date definitions are inlined: `{type, format}` is shorter than a
 * reference to it.
 */
// Bounds a server's own results always meet: they tell a client nothing it can act on.
const OUTPUT_BOUNDS: ReadonlySet<string> = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
])

type TerseOptions = { keep: readonly string[]; depth?: number }

function terseOutputSchema(schema: Json, { keep, depth = Number.POSITIVE_INFINITY }: TerseOptions): Json {
  const defs = (schema.$defs as Record<string, Json> | undefined) ?? {}
  const dates = new Set(Object.values(SHARED_FORMATS).filter((name) => defs[name] !== undefined))
  const unkept = (node: unknown): boolean => {
    const ref =
      typeof (node as Json | null)?.$ref === 'string'
        ? /^#\/\$defs\/([^/]+)$/.exec((node as Json).$ref as string)?.[1]
        : undefined
    return ref !== undefined && !dates.has(ref) && !keep.includes(ref)
  }
  // A property that is a definition not kept, or an array of them.
  const isUnkeptRef = (node: unknown): boolean =>
    unkept(node) || ((node as Json | null)?.type === 'array' && unkept((node as Json).items))
  const typeOnly = (node: Json): Json => (typeof node.type === 'string' ? { type: node.type } : {})
  // `level`: objects above this node; a definition is rewritten at level 0 (it may be used anywhere).
  const rewrite = (node: unknown, level: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, level))
    if (node === null || typeof node !== 'object') return node
    const input = node as Json
    const ref = typeof input.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(input.$ref)?.[1] : undefined
    if (ref !== undefined && dates.has(ref))
      return rewrite({ ...defs[ref], ...input, $ref: undefined }, level)
    if (ref !== undefined && !keep.includes(ref)) return defs[ref] === undefined ? {} : typeOnly(defs[ref])
    if (input.type === 'object' && level > depth) return typeOnly(input)
    const below = input.type === 'object' ? level + 1 : level
    const out: Json = {}
    for (const [key, value] of Object.entries(input)) {
      if (
        value === undefined ||
        key === 'examples' ||
        key === '$schema' ||
        (key === 'description' && level > 0)
      )
        continue
      if (
        (key === 'pattern' && typeof input.format === 'string') ||
        (key === 'additionalProperties' && value === false) ||
        OUTPUT_BOUNDS.has(key)
      )
        continue
      if (key === '$defs') {
        const kept = Object.entries(value as Record<string, unknown>).filter(([name]) => keep.includes(name))
        if (kept.length > 0) out[key] = Object.fromEntries(kept.map(([name, d]) => [name, rewrite(d, 1)]))
      } else if (key === 'properties') {
        // A property made of a definition not kept is left out: the object, no longer closed, still allows it.
        const described = Object.entries(value as Json).filter(([, v]) => !isUnkeptRef(v))
        out[key] = Object.fromEntries(described.map(([name, v]) => [name, rewrite(v, below)]))
      } else
        out[key] = SCHEMA_MAPS.has(key)
          ? mapValues(value as Record<string, unknown>, (v) => rewrite(v, below))
          : rewrite(value, below)
    }
    return out
  }
  return rewrite(schema, 0) as Json
}
