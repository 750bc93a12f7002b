/**
 * The OpenAPI 3.1 document, generated from the zod schemas (core/records/record.ts, core/api/schemas.ts):
 * component schemas come from `z.toJSONSchema` over the components' own registry (core/components.ts),
 * parameters from the parameter schemas, so the document cannot drift from what the server validates
 * and sends, and nothing another module registers with zod can reach it.
 */
import { z } from 'zod'
import { ChangesParamsSchema } from '../core/api/changes.js'
import {
  API_PREFIX,
  API_VERSION,
  FactPathSchema,
  NoParamsSchema,
  SearchParamsSchema,
} from '../core/api/schemas.js'
import { componentRegistry } from '../core/components.js'
import {
  CATALOGUE_EXAMPLE,
  ERROR_EXAMPLES,
  PARAMETER_EXAMPLES,
  RECORD_EXAMPLE,
  SEARCH_EXAMPLE,
  SEARCH_NO_MATCH_EXAMPLE,
} from './openapi-examples.js'

type JsonObject = Record<string, unknown>
const COMPONENTS = [
  'Kind',
  'RecordId',
  'Source',
  'Video',
  'Chapter',
  'Related',
  'OrganizationData',
  'PersonData',
  'OfferData',
  'Fact',
  'SearchInterpretation',
  'SearchResult',
  'Error',
  'Catalogue',
  'Change',
  'ChangeFeed',
]

function componentSchemas(): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(componentRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  })
  // The list fixes the document's order; a component named in the schemas but missing here would be dropped unseen.
  const unplaced = [...componentRegistry._idmap.keys()].filter((id) => !COMPONENTS.includes(id))
  if (unplaced.length > 0)
    throw new Error(
      `openapi: schema(s) ${unplaced.map((id) => `"${id}"`).join(', ')} registered but not placed in COMPONENTS`,
    )
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
    const generated = z.toJSONSchema(param as z.ZodType, {
      io: 'input',
      target: 'draft-2020-12',
    }) as JsonObject
    // A parameter whose schema is a registered component (the record id) points at the component.
    const {
      $schema: _s,
      $defs: _d,
      description,
      ...json
    } = typeof generated.$ref === 'string'
      ? { ...generated, $ref: generated.$ref.replace('#/$defs/', '#/components/schemas/') }
      : generated
    const required = location === 'path' || !(param as z.ZodType).safeParse(undefined).success
    const examples = PARAMETER_EXAMPLES[name]
    return {
      name,
      in: location,
      required,
      description,
      schema: json,
      ...(examples === undefined ? {} : { examples }),
    }
  })
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const jsonBody = (description: string, schema: JsonObject, headers?: JsonObject, examples?: JsonObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema, ...(examples === undefined ? {} : { examples }) } },
})
const header = (description: string, schema: JsonObject = { type: 'string' }, required = true) => ({
  description,
  required,
  schema,
})
// The IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers-10), on every counted response while a quota is enforced.
const RATE_LIMIT_HEADERS = {
  RateLimit: header(
    'Remaining quota and seconds until a place frees up, e.g. `"default";r=117;t=42`.',
    { type: 'string' },
    false,
  ),
  'RateLimit-Policy': header(
    'The quota: requests per window and window in seconds, e.g. `"default";q=120;w=60`.',
    { type: 'string' },
    false,
  ),
}
/** The 304 of a conditional read: its ETag, any field that describes the body, the quota's fields. */
const notModified = (headers: JsonObject = {}) => ({
  description: 'Not modified: the If-None-Match ETag is current.',
  headers: { ETag: header('Strong entity tag.'), ...headers, ...RATE_LIMIT_HEADERS },
})
const errorResponse = (status: keyof typeof ERROR_EXAMPLES, description: string, headers?: JsonObject) =>
  jsonBody(description, ref('Error'), { ...RATE_LIMIT_HEADERS, ...headers }, ERROR_EXAMPLES[status])
const RETRY_AFTER = header('Whole seconds to wait before retrying, 1 to 60.', {
  type: 'integer',
  minimum: 1,
  maximum: 60,
})

/** Statuses every operation can answer (docs/spec.md §7). */
function commonResponses(): JsonObject {
  return {
    '307': jsonBody(
      'Not a live read: follow Location, the same address with po_live=1. The body names it too, for clients that do not follow redirects.',
      {
        type: 'object',
        // No `format`: the query is kept byte for byte, even where it is not valid percent-encoding (the live read refuses it).
        properties: {
          location: {
            type: 'string',
            description: 'The live-read address, the same as the Location header.',
          },
        },
        required: ['location'],
        additionalProperties: false,
      },
      {
        Location: header('The live-read address (same origin).', { type: 'string', format: 'uri-reference' }),
        ...RATE_LIMIT_HEADERS,
      },
      {
        redirect: {
          summary: 'GET /api/v1/facts?q=vitesse',
          value: { location: '/api/v1/facts?q=vitesse&po_live=1' },
        },
      },
    ),
    '304': notModified(),
    '400': errorResponse('400', 'Invalid parameter (code invalid_parameter); the message names it.'),
    '403': errorResponse(
      '403',
      'A service listening on a loopback address only, and a Host or Origin naming another host than a loopback name, the public base URL host or one of ALLOWED_HOSTS (code invalid_parameter): the guard against DNS rebinding.',
    ),
    '405': errorResponse('405', 'Method refused: the API is GET only (code method_not_allowed).', {
      Allow: header('GET, HEAD, OPTIONS'),
    }),
    '414': errorResponse('414', 'Request URL too long (code invalid_parameter).'),
    '431': errorResponse(
      '431',
      'Request line or headers over 16 KiB, refused by the HTTP parser (code invalid_parameter).',
    ),
    '429': errorResponse('429', 'Request limit reached (code rate_limited).', { 'Retry-After': RETRY_AFTER }),
    '503': errorResponse('503', 'Service unavailable (code unavailable).', { 'Retry-After': RETRY_AFTER }),
  }
}

/** How old a record's verification is today: derived from verified_at, so it is a header, never a record field. */
const VERIFICATION_AGE = header(
  'Present when the record has verified_at: whole days since it (UTC calendar days), followed by ";reverify" ' +
    'for an official rule (kind fact) verified more than 12 months ago, flagged "à revérifier" on its page ' +
    '(an RFC 8941 integer with a boolean parameter, e.g. 412;reverify).',
  { type: 'string', pattern: '^[0-9]+(;reverify)?$' },
  false,
)

const okHeaders = {
  ETag: header('Strong entity tag; send it back in If-None-Match for a 304.'),
  ...RATE_LIMIT_HEADERS,
}

function operation(
  operationId: string,
  summary: string,
  params: JsonObject[],
  ok: JsonObject,
  extra: JsonObject = {},
): JsonObject {
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

/** GET /facts.ndjson: the whole snapshot, not redirected (no 307), with Last-Modified and content negotiation. */
function downloadOperation(): JsonObject {
  const { '307': _redirect, ...responses } = commonResponses()
  const validators = {
    ETag: header(
      'Strong entity tag of this representation (plain or gzip); send it back in If-None-Match for a 304.',
    ),
    'Last-Modified': header('When the served snapshot was published; If-Modified-Since is answered too.'),
    'X-Publication-Id': header(
      'The publication these records are: follow GET /changes?since= this value to keep a copy up to date.',
    ),
    'X-Records-Checksum': header(
      '`sha256=` and the SHA-256 (hex) of the records in id order, each line followed by a line feed (the body sorted by id).',
    ),
  }
  return {
    get: {
      operationId: 'downloadFacts',
      summary: 'Every record of the served snapshot, as NDJSON: one record (a Fact) per line.',
      description:
        'The whole catalogue in one response, in listing order, each line byte-identical to the record read alone. ' +
        'Not redirected: po_live does not apply (po_live=1 is accepted). Counts as one request in the quota. ' +
        'Sent with Content-Encoding gzip when Accept-Encoding allows it. Revalidate with If-None-Match or If-Modified-Since.',
      tags: ['records'],
      parameters: parameters(NoParamsSchema, 'query'),
      responses: {
        '200': {
          description:
            'Every record, one JSON object (see the Fact schema) per line, each line ending with a line feed.',
          headers: { ...validators, ...RATE_LIMIT_HEADERS },
          content: {
            'application/x-ndjson': {
              schema: { type: 'string', description: 'Lines of JSON, each a Fact.' },
            },
          },
        },
        ...responses,
        '304': {
          description: 'Not modified: the If-None-Match ETag (or If-Modified-Since date) is current.',
          headers: { ...validators, ...RATE_LIMIT_HEADERS },
        },
      },
    },
  }
}

/** GET /changes: not redirected (no 307), 410 when since is older than the kept history. */
function changesOperation(): JsonObject {
  const { '307': _redirect, '304': _notModified, ...responses } = commonResponses()
  return {
    get: {
      operationId: 'listChanges',
      summary: 'What the publications after since added, changed and removed, paged with a cursor.',
      description:
        'The change feed: one entry per record and publication, in publication order then id order, removals included. ' +
        'Start from the X-Publication-Id of the download (or an RFC 3339 time), follow next until it is null, then keep publication.id for the next time. ' +
        'Not redirected: po_live does not apply (po_live=1 is accepted). Counts in the quota like every request. ' +
        'A since older than the kept history answers 410 (code gone): download the snapshot again.',
      tags: ['records'],
      parameters: parameters(ChangesParamsSchema, 'query'),
      responses: {
        '200': jsonBody('A page of changes.', ref('ChangeFeed'), {
          'X-Publication-Id': header('The newest publication (publication.id of the body).'),
          ...RATE_LIMIT_HEADERS,
        }),
        ...responses,
        '410': errorResponse(
          '410',
          'since (or the cursor) is older than the kept history (code gone): download the snapshot again and follow from its X-Publication-Id.',
        ),
      },
    },
  }
}

/**
 * Builds the document; `serverUrl` is the public base URL when configured, else the document is
 * root-relative. `contact` is the publisher's address (PUBLISHER_CONTACT), also in the catalogue.
 */
export function buildOpenApiDocument(serverUrl?: string, contact?: string): JsonObject {
  return {
    openapi: '3.1.0',
    // No jsonSchemaDialect: the default (OAS 3.1 base, a superset of draft 2020-12) reads these schemas the
    // same, and Swagger UI (the /reference page) warns on any other value.
    info: {
      title: 'Reference-Records API',
      version: API_VERSION,
      summary:
        'Public, read-only records of a driving-licence training website: official rules, lessons, method, offers.',
      description:
        'GET only, no key, public CORS. Every operation first answers 307 to its live read (po_live=1). ' +
        'Requests are limited per client (shared with the MCP server); a 429 carries Retry-After.',
      ...(contact === undefined ? {} : { contact: { name: 'Publisher of the records', email: contact } }),
      // The description and the software are MIT; the records' reuse conditions are in the catalogue
      // (`reuse`). An absolute URL, whether or not the service knows its public address.
      license: {
        name: 'MIT (this description and the software; reuse of the records: see the catalogue)',
        url: 'https://spdx.org/licenses/MIT.html',
      },
    },
    servers: [{ url: `${serverUrl ?? ''}${API_PREFIX}` }],
    security: [],
    tags: [{ name: 'records', description: 'Catalogue, search and records.' }],
    paths: {
      '/': operation(
        'getCatalogue',
        'The catalogue: record counts, links, limits, reuse conditions.',
        parameters(NoParamsSchema, 'query'),
        jsonBody('The catalogue.', ref('Catalogue'), okHeaders, {
          sample: { summary: 'The bundled sample', value: CATALOGUE_EXAMPLE },
        }),
      ),
      '/facts': operation(
        'searchFacts',
        'Search records; page with limit and offset.',
        parameters(SearchParamsSchema, 'query'),
        jsonBody('A page of matching records.', ref('SearchResult'), okHeaders, {
          search: { summary: 'q=vitesse agglomération&kind=fact&limit=1', value: SEARCH_EXAMPLE },
          noMatch: {
            summary:
              "q=peut-on rouler en trotinette sur l'autoroute ? (nothing matches: corrections and relaxed queries)",
            value: SEARCH_NO_MATCH_EXAMPLE,
          },
        }),
      ),
      '/facts/{id}': operation(
        'getFact',
        'One record, with its provenance (sources, verification fields).',
        [...parameters(FactPathSchema, 'path'), ...parameters(NoParamsSchema, 'query')],
        jsonBody(
          'The record.',
          ref('Fact'),
          { ...okHeaders, 'Verification-Age': VERIFICATION_AGE },
          { rule: { summary: 'An official rule, with its sources and verification', value: RECORD_EXAMPLE } },
        ),
        {
          '304': notModified({ 'Verification-Age': VERIFICATION_AGE }),
          '404': errorResponse('404', 'Unknown record (code not_found).'),
        },
      ),
      '/facts.ndjson': downloadOperation(),
      '/changes': changesOperation(),
      '/openapi.json': operation(
        'getOpenApi',
        'This OpenAPI 3.1 document.',
        parameters(NoParamsSchema, 'query'),
        jsonBody('The OpenAPI document.', { type: 'object' }, okHeaders),
      ),
    },
    components: { schemas: componentSchemas() },
  }
}
