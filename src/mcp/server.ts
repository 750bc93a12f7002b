/**
 * The MCP server: three read-only tools and the records as resources, over any RecordReader. A fresh
 * instance is built per HTTP request (stateless serving) or per stdio connection; building one is
 * cheap because the schemas below are built once.
 */
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, type Resource } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { RecordReader } from '../core/api/reader.js'
import { CatalogueSchema, SearchEnvelopeSchema, SearchParamsSchema, matchParam } from '../core/api/schemas.js'
import { FactSchema, RecordIdSchema } from '../core/records/record.js'
import { withCachedJsonSchema } from './cached-schema.js'
import { renderCatalogue, renderRecord, renderSearch } from './render.js'

export const MCP_SERVER_NAME = 'reference-records'
/** Resource URIs: one record per id, and the catalogue. */
export const RECORD_URI_TEMPLATE = 'reference-records://facts/{id}'
export const CATALOGUE_URI = 'reference-records://catalogue'
/**
 * Records per page of resources/list (the first page also lists the catalogue); `nextCursor` leads to
 * the next page, so every record can be listed whatever the size of the catalogue. 50 is the API's
 * largest page: over a remote API (`mcp --base-url`) one page is one API request.
 */
export const RESOURCE_PAGE_SIZE = 50

const { q, kind, region, limit, offset } = SearchParamsSchema.shape
// The same parameter schemas as the HTTP API, so validation and semantics cannot differ; unknown
// arguments are refused, as on the API. Converted to JSON Schema once, not per request. The one
// difference is `match`'s default: agents send sentences, which best match answers (CONTRACT.md).
const SearchInput = withCachedJsonSchema(z.strictObject({ q, kind, region, match: matchParam('best'), limit, offset }))
const GetInput = withCachedJsonSchema(
  z.strictObject({ id: RecordIdSchema.describe('Record id, e.g. fait-0123456789abcdef (from search_facts).') }),
)
const NoInput = withCachedJsonSchema(z.strictObject({}))
const SearchOutput = withCachedJsonSchema(SearchEnvelopeSchema)
const FactOutput = withCachedJsonSchema(FactSchema)
const CatalogueOutput = withCachedJsonSchema(CatalogueSchema)
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

const text = (value: string) => [{ type: 'text' as const, text: value }]

export function createMcpServer(reader: RecordReader, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    {
      // The SDK announces listChanged: true unless told otherwise; this server never sends the
      // notifications (a stateless server has no stream to send them on, and the tools never change).
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions:
        'Public records of a French driving-licence training website. Official rules (kind "fact") carry their legal ' +
        'sources and verification date; keep them distinct from lessons, method and offers, and link to the record url when quoting.',
    },
  )

  // The name says "facts" for history: it searches every kind of record, as its description says
  // first. Renaming it would break every client configured with (or trained on) the name.
  server.registerTool(
    'search_facts',
    {
      title: 'Search records',
      description:
        'Search every kind of record, not only official rules (kind "fact"): lessons, method, articles, offers, staff, site pages. ' +
        'The records are in French: send q in French, as key words (« priorité à droite intersection ») or as the user\'s question ' +
        '(« à quel âge peut-on conduire une trottinette ? »); a whole sentence works. Accents, case, question and stop words are ignored, ' +
        'word forms, everyday words and typos are understood. By default (match "best") the records holding the most of the words come ' +
        'first, rarer words and words in titles weighing more, so a word no record holds does not empty the answer; the answer says ' +
        'which words the first records hold (matched), which were left out, and what each result lacks. match "all" keeps only records ' +
        'holding every word. Search before concluding that a rule is not covered. ' +
        'Filter by kind (fact = official rule, lesson, expertise, offer, …) and region; page with limit (1–50) and offset.',
      inputSchema: SearchInput,
      outputSchema: SearchOutput,
      annotations: { title: 'Search records', ...READ_ONLY },
    },
    async (args) => {
      const page = await reader.search(args)
      return { content: text(renderSearch(page)), structuredContent: page }
    },
  )

  server.registerTool(
    'get_fact',
    {
      title: 'Read one record',
      description: 'Read one record by id, with its text, link, sources and verification date. Use search_facts first if you do not know the id.',
      inputSchema: GetInput,
      outputSchema: FactOutput,
      annotations: { title: 'Read one record', ...READ_ONLY },
    },
    async ({ id }) => {
      const record = await reader.get(id)
      // A missing record is a result the model can act on, not a protocol error; no structuredContent on errors.
      if (record === undefined) return { isError: true, content: text(`No record with id "${id}". Find ids with search_facts.`) }
      return { content: text(renderRecord(record)), structuredContent: record }
    },
  )

  server.registerTool(
    'get_catalogue',
    {
      title: 'Describe the records',
      description: 'What the records cover: counts per kind, limits, links and reuse conditions.',
      inputSchema: NoInput,
      outputSchema: CatalogueOutput,
      annotations: { title: 'Describe the records', ...READ_ONLY },
    },
    async () => {
      const catalogue = await reader.catalogue()
      return { content: text(renderCatalogue(catalogue)), structuredContent: catalogue }
    },
  )

  // Listed by the paged resources/list handler below, not by the template's `list` callback: the
  // SDK's handler calls that callback without the request's cursor and drops its nextCursor.
  const recordTemplate = new ResourceTemplate(RECORD_URI_TEMPLATE, { list: undefined })
  server.registerResource('record', recordTemplate, { title: 'A record', mimeType: 'application/json' }, async (uri, variables) => {
    const id = String(variables.id)
    const record = RecordIdSchema.safeParse(id).success ? await reader.get(id) : undefined
    if (record === undefined) throw new ResourceNotFoundError(uri.href)
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(record) }] }
  })
  server.registerResource('catalogue', CATALOGUE_URI, { title: 'The catalogue', mimeType: 'application/json' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await reader.catalogue()) }],
  }))
  // Replaces the handler the SDK installed with the first registerResource (the low-level Server lets
  // a handler be set again); resources/read and resources/templates/list stay the SDK's.
  server.server.setRequestHandler('resources/list', async (request) => listResources(reader, request.params?.cursor))
  return server
}

const CATALOGUE_RESOURCE: Resource = { uri: CATALOGUE_URI, name: 'catalogue', title: 'The catalogue', mimeType: 'application/json' }

/**
 * One page of resources/list: RESOURCE_PAGE_SIZE records in listing order from the cursor, the
 * catalogue first on the first page. The cursor is the offset of the page's first record (opaque to
 * clients, as the protocol says). Pages are cut from the snapshot served when each is read, so a
 * publication between two pages may shift the listing, as paging the API with offset does.
 */
async function listResources(reader: RecordReader, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const offset = cursor === undefined ? 0 : offsetOfCursor(cursor)
  const page = await reader.list(offset, RESOURCE_PAGE_SIZE)
  const records = page.records.map(
    (r): Resource => ({ uri: RECORD_URI_TEMPLATE.replace('{id}', r.id), name: r.id, title: r.title, description: r.description, mimeType: 'application/json' }),
  )
  const next = offset + page.records.length
  // An empty page ends the listing even below total: a remote API pages no further than its largest offset.
  const nextCursor = page.records.length > 0 && next < page.total ? String(next) : undefined
  return { resources: offset === 0 ? [CATALOGUE_RESOURCE, ...records] : records, ...(nextCursor === undefined ? {} : { nextCursor }) }
}

function offsetOfCursor(cursor: string): number {
  // The protocol's answer to a cursor the server did not issue: Invalid params (-32602).
  if (!/^[1-9]\d{0,8}$/.test(cursor)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor.slice(0, 40))}: pass the nextCursor of the previous page`)
  return Number(cursor)
}
