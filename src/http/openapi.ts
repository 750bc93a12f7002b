/**
 * The OpenAPI 3.1 document, generated from the zod schemas (records/record.ts, http/schemas.ts):
 * component schemas come from `z.toJSONSchema`, parameters from the parameter schemas, so the
 * document cannot drift from what the server validates and sends.
 */
import { z } from 'zod'
import { API_PREFIX, API_VERSION, FactPathSchema, NoParamsSchema, SearchParamsSchema } from './schemas.js'

type JsonObject = Record<string, unknown>
const COMPONENTS = ['Kind', 'RecordId', 'Source', 'Video', 'Chapter', 'Related', 'OrganizationData', 'PersonData', 'OfferData', 'Fact', 'SearchResult', 'Error', 'Catalogue']

function componentSchemas(): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` })
  const out: Record<string, JsonObject> = {}
  for (const id of COMPONENTS) {
    const schema = schemas[id] as JsonObject | undefined
    if (schema === undefined) throw new Error(`openapi: schema "${id}" is not registered`)
    // Inside an OpenAPI document a component is identified by its place, not by $id/$schema.
    const { $id: _id, $schema: _schema, ...rest } = schema
    out[id] = rest
  }
  return out
}

function parameters(schema: z.ZodObject, location: 'query' | 'path'): JsonObject[] {
  return Object.entries(schema.shape).map(([name, param]) => {
    const generated = z.toJSONSchema(param as z.ZodType, { io: 'input', target: 'draft-2020-12' }) as JsonObject
    // A parameter whose schema is a registered component (the record id) points at the component.
    const { $schema: _s, $defs: _d, description, ...json } = typeof generated.$ref === 'string'
      ? { ...generated, $ref: generated.$ref.replace('#/$defs/', '#/components/schemas/') }
      : generated
    const required = location === 'path' || !(param as z.ZodType).safeParse(undefined).success
    return { name, in: location, required, description, schema: json }
  })
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const jsonBody = (description: string, schema: JsonObject, headers?: JsonObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
})
const header = (description: string, schema: JsonObject = { type: 'string' }, required = true) => ({ description, required, schema })
// The IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers-10), on every counted response while a quota is enforced.
const RATE_LIMIT_HEADERS = {
  RateLimit: header('Remaining quota and seconds until a place frees up, e.g. `"default";r=117;t=42`.', { type: 'string' }, false),
  'RateLimit-Policy': header('The quota: requests per window and window in seconds, e.g. `"default";q=120;w=60`.', { type: 'string' }, false),
}
const errorResponse = (description: string, headers?: JsonObject) => jsonBody(description, ref('Error'), { ...RATE_LIMIT_HEADERS, ...headers })
const RETRY_AFTER = header('Whole seconds to wait before retrying, 1 to 60.', { type: 'integer', minimum: 1, maximum: 60 })

/** Statuses every operation can answer (spec §7). */
function commonResponses(): JsonObject {
  return {
    '307': {
      description: 'Not a live read: follow Location, the same address with po_live=1.',
      headers: { Location: header('The live-read address (same origin).', { type: 'string', format: 'uri-reference' }), ...RATE_LIMIT_HEADERS },
    },
    '304': { description: 'Not modified: the If-None-Match ETag is current.', headers: { ETag: header('Strong entity tag.'), ...RATE_LIMIT_HEADERS } },
    '400': errorResponse('Invalid parameter (code invalid_parameter); the message names it.'),
    '405': errorResponse('Method refused: the API is GET only (code method_not_allowed).', {
      Allow: header('GET, HEAD, OPTIONS'),
    }),
    '414': errorResponse('Request URL too long (code invalid_parameter).'),
    '431': errorResponse('Request line or headers over 16 KiB, refused by the HTTP parser (code invalid_parameter).'),
    '429': errorResponse('Request limit reached (code rate_limited).', { 'Retry-After': RETRY_AFTER }),
    '503': errorResponse('Service unavailable (code unavailable).', { 'Retry-After': RETRY_AFTER }),
  }
}

const okHeaders = { ETag: header('Strong entity tag; send it back in If-None-Match for a 304.'), ...RATE_LIMIT_HEADERS }

function operation(operationId: string, summary: string, params: JsonObject[], ok: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    get: {
      operationId,
      summary,
      tags: ['records'],
      parameters: params,
      responses: { '200': ok, ...commonResponses(), ...extra },
    },
  }
}

/** Builds the document; `serverUrl` is the public base URL when configured, else the document is root-relative. */
export function buildOpenApiDocument(serverUrl?: string): JsonObject {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Reference-Records API',
      version: API_VERSION,
      summary: 'Public, read-only records of a driving-licence training website: official rules, lessons, method, offers.',
      description:
        'GET only, no key, public CORS. Every operation first answers 307 to its live read (po_live=1). ' +
        'Requests are limited per client (shared with the MCP server); a 429 carries Retry-After.',
      license: { name: 'Reuse conditions: see the catalogue', url: `${serverUrl ?? ''}${API_PREFIX}/` },
    },
    servers: [{ url: `${serverUrl ?? ''}${API_PREFIX}` }],
    security: [],
    tags: [{ name: 'records', description: 'Catalogue, search and records.' }],
    paths: {
      '/': operation('getCatalogue', 'The catalogue: record counts, links, limits, reuse conditions.', parameters(NoParamsSchema, 'query'), jsonBody('The catalogue.', ref('Catalogue'), okHeaders)),
      '/facts': operation('searchFacts', 'Search records; page with limit and offset.', parameters(SearchParamsSchema, 'query'), jsonBody('A page of matching records.', ref('SearchResult'), okHeaders)),
      '/facts/{id}': operation(
        'getFact',
        'One record, with its provenance (sources, verification fields).',
        [...parameters(FactPathSchema, 'path'), ...parameters(NoParamsSchema, 'query')],
        jsonBody('The record.', ref('Fact'), okHeaders),
        { '404': errorResponse('Unknown record (code not_found).') },
      ),
      '/openapi.json': operation('getOpenApi', 'This OpenAPI 3.1 document.', parameters(NoParamsSchema, 'query'), jsonBody('The OpenAPI document.', { type: 'object' }, okHeaders)),
    },
    components: { schemas: componentSchemas() },
  }
}
