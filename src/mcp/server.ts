/**
 * The MCP server: five read-only tools (search_facts, get_fact, get_catalogue, and ChatGPT's search and
 * fetch), the records, the catalogue and a guide as resources, two prompts and completion of record
 * ids, over any RecordReader. A fresh instance is built per HTTP request (stateless serving) or per
 * stdio connection; building one is cheap because the schemas below are built once.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type CallToolResult,
  type Resource,
  type Transport,
} from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { RecordReader } from '../core/api/reader.js'
import {
  CatalogueSchema,
  LIMITS,
  SearchEnvelopeSchema,
  SearchParamsSchema,
  matchParam,
  type SearchEnvelope,
} from '../core/api/schemas.js'
import { FactSchema, type Fact } from '../core/records/record.js'
import { RECORD_CARD_TOOL_META, registerRecordCard } from './app.js'
import { withCachedJsonSchema } from './cached-schema.js'
import { CHATGPT_SEARCH_LIMIT, chatGptDocument, chatGptSearchResults } from './chatgpt.js'
import { completedArgument, registerCompletion } from './completion.js'
import { cacheHint, type McpContext } from './context.js'
import { GUIDE_URI, guideMarkdown, instructions } from './guide.js'
import { guardRequestParams } from './params-guard.js'
import { PROMPT_COMPLETIONS, registerPrompts } from './prompts.js'
import { readRecordRef, teachingMessage } from './record-ref.js'
import { renderCatalogue, renderRecord, renderSearch, type RenderView } from './render.js'

export const MCP_SERVER_NAME = 'reference-records'
/** Resource URIs: one record per id, and the catalogue. */
const RECORD_URI_TEMPLATE = 'reference-records://facts/{id}'
const CATALOGUE_URI = 'reference-records://catalogue'
/**
 * Records per page of resources/list (the first page also lists the catalogue and the guide);
 * `nextCursor` leads to the next page, so every record can be listed whatever the size of the
 * catalogue. 50 is the API's largest page: over a remote API (`mcp --base-url`) one page is one API request.
 */
export const RESOURCE_PAGE_SIZE = 50

const recordUri = (id: string) => RECORD_URI_TEMPLATE.replace('{id}', id)

const { q, kind, region, limit, offset } = SearchParamsSchema.shape
// The same parameter schemas as the HTTP API, so validation and semantics cannot differ; unknown
// arguments are refused, as on the API. Converted to JSON Schema once, not per request. The one
// difference is `match`'s default: agents send sentences, which best match answers.
// The parameters' prose is the tool description's: here each says only what it is (tools/list is sent
// to a model on every connection; the OpenAPI document keeps the API's longer words).
const SearchInput = withCachedJsonSchema(
  z.strictObject({
    q: q.describe('Question or key words, in French.'),
    kind: kind.describe('Only this kind (fact = official rule).'),
    region,
    match: matchParam('best').describe(
      'best (default): records holding the most words first; all: only records holding every word.',
    ),
    limit: limit.describe('Results per call (1–50).'),
    offset: offset.describe('Results to skip, to page.'),
  }),
)
// An id, or what an agent holds instead (a page URL, an API URL, a resource URI): read by record-ref.ts,
// which answers anything else with what an id looks like. Bounded like a URL the service accepts.
const recordRef = z.string().min(1).max(2048)
const GetInput = withCachedJsonSchema(
  z.strictObject({
    id: recordRef.describe('Record id (fait-0123456789abcdef) from a search; a record page URL works too.'),
    text_from: z.int().min(0).optional().describe('Where to read on in a text that was cut.'),
  }),
)
// ChatGPT's deep research sends long queries: up to a few paragraphs are taken, and searched by their
// first LIMITS.maxQueryLength characters (the API's bound), rather than refused.
const MAX_CHATGPT_QUERY = 4000
const ChatGptSearchInput = withCachedJsonSchema(
  z.strictObject({
    query: z.string().min(1).max(MAX_CHATGPT_QUERY).describe('The question or key words, in French.'),
  }),
)
const ChatGptFetchInput = withCachedJsonSchema(
  z.strictObject({ id: recordRef.describe('An id from search results.') }),
)
const NoInput = withCachedJsonSchema(z.strictObject({}))
// Output schemas keep whole what an agent tests (ids, kinds, sources, how q was read); the rest keeps its type.
const RECORD_PARTS = ['RecordId', 'Kind', 'Source']
const SearchOutput = withCachedJsonSchema(SearchEnvelopeSchema, {
  output: { keep: ['Fact', 'SearchInterpretation', ...RECORD_PARTS], depth: 1 },
})
const FactOutput = withCachedJsonSchema(FactSchema, { output: { keep: RECORD_PARTS } })
const CatalogueOutput = withCachedJsonSchema(CatalogueSchema, { output: { keep: [], depth: 0 } })
// The tools' titles are their own `title`; annotations carry only the hints.
const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const

const text = (value: string) => ({ type: 'text' as const, text: value })

/** A search hit as a link to its record resource, so a client can read or attach it without another search. */
const resourceLink = (r: Fact) => ({
  type: 'resource_link' as const,
  uri: recordUri(r.id),
  name: r.id,
  title: r.title,
  mimeType: 'application/json',
  ...(r.modified_at === undefined ? {} : { annotations: { lastModified: r.modified_at } }),
})

/**
 * The SDK's server, with the request params checked before the SDK reads them (params-guard.ts): a
 * wrongly typed argument gets Invalid params naming it, whatever the transport.
 */
class ReferenceRecordsMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    guardRequestParams(transport, () => this.server.getNegotiatedProtocolVersion())
    await super.connect(transport)
  }
}

function createMcpServer(reader: RecordReader, context: McpContext): McpServer {
  const now = context.now()
  const view: RenderView = { recordPage: context.recordPage, now }
  // Every cacheable result says the same: public, kept for a share of the time since the publication.
  const hint = cacheHint(context.catalogue?.updated_at, now)
  const server = new ReferenceRecordsMcpServer(
    { name: MCP_SERVER_NAME, version: context.version },
    {
      // The SDK announces listChanged: true unless told otherwise; this server never sends the
      // notifications (a stateless server has no stream to send them on, and the tools never change).
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
        // logging/setLevel, for the 2025 era (the 2026-07-28 revision removed it, and the SDK answers
        // Method not found there): accepted, with nothing to filter, as this server sends no log messages.
        logging: {},
      },
      instructions: instructions(context.catalogue),
      cacheHints: Object.fromEntries(
        (
          [
            'tools/list',
            'prompts/list',
            'resources/list',
            'resources/templates/list',
            'resources/read',
            'server/discover',
          ] as const
        ).map((method) => [method, hint]),
      ),
    },
  )

  /** The record an agent named, or the answer that teaches it how to name one. */
  const resolve = async (
    input: string,
    tool: string,
  ): Promise<{ record: Fact } | { refusal: CallToolResult }> => {
    const ref = readRecordRef(input)
    const record =
      'id' in ref
        ? await reader.get(ref.id)
        : 'url' in ref && reader.byUrl !== undefined
          ? await reader.byUrl(ref.url)
          : undefined
    if (record !== undefined) return { record }
    // A missing record is a result the model can act on, not a protocol error; no structuredContent on errors.
    if ('id' in ref)
      return {
        refusal: {
          isError: true,
          content: [
            text(`No record with id "${ref.id}": it may have been withdrawn. Find ids with search_facts.`),
          ],
        },
      }
    const words = 'text' in ref ? ref.text : ''
    const suggestions = words === '' ? [] : await suggest(reader, words)
    return { refusal: { isError: true, content: [text(teachingMessage(input, tool, suggestions))] } }
  }

  // The name says "facts" for history: it searches every kind of record, as its description says
  // first. Renaming it would break every client configured with (or trained on) the name.
  server.registerTool(
    'search_facts',
    {
      title: 'Search records',
      description:
        'Search every kind of record, not only official rules (kind "fact"): lessons, method, articles, offers, staff, site pages. ' +
        'Send q in French as the user asked it (« à quel âge peut-on conduire une trottinette ? ») or as key words; typos, word forms and ' +
        'everyday words are handled. Records holding the most words come first; each hit gives its status (official rule or not, ' +
        'verification age), the passage that matched and the words it lacks. Search before concluding that a rule is not covered.',
      inputSchema: SearchInput,
      outputSchema: SearchOutput,
      annotations: READ_ONLY,
      _meta: RECORD_CARD_TOOL_META,
    },
    async (args) => {
      const page = await reader.search(args)
      const { text: rendered, shown } = renderSearch(page, view)
      // The structured content holds the records the text shows: an answer cut for size is cut in both.
      const results = page.results.slice(0, shown)
      const structured: SearchEnvelope =
        results.length === page.results.length ? page : { ...page, results, ...cutMissing(page, results) }
      return { content: [text(rendered), ...results.map(resourceLink)], structuredContent: structured }
    },
  )

  server.registerTool(
    'get_fact',
    {
      title: 'Read one record',
      description:
        'Read one record by id (from search_facts): its whole text, status, link, sources and verification date. A long text is cut; text_from reads on.',
      inputSchema: GetInput,
      outputSchema: FactOutput,
      annotations: READ_ONLY,
      _meta: RECORD_CARD_TOOL_META,
    },
    async ({ id, text_from }) => {
      const found = await resolve(id, 'get_fact')
      if ('refusal' in found) return found.refusal
      return {
        content: [text(renderRecord(found.record, view, text_from ?? 0))],
        structuredContent: found.record,
      }
    },
  )

  server.registerTool(
    'get_catalogue',
    {
      title: 'Describe the records',
      description: 'What the records cover: counts per kind, limits, links and reuse conditions.',
      inputSchema: NoInput,
      outputSchema: CatalogueOutput,
      annotations: READ_ONLY,
    },
    async () => {
      const catalogue = await reader.catalogue()
      return { content: [text(renderCatalogue(catalogue))], structuredContent: catalogue }
    },
  )

  server.registerTool(
    'search',
    {
      title: 'Search records (ChatGPT)',
      description:
        'Search the French driving-licence records (official road rules, lessons, method, offers) with a question or key words in French. ' +
        'Returns ids, titles and page URLs; read one with fetch.',
      inputSchema: ChatGptSearchInput,
      annotations: READ_ONLY,
    },
    async ({ query }) => {
      const page = await reader.search({
        q: firstWords(query, LIMITS.maxQueryLength),
        match: 'best',
        limit: CHATGPT_SEARCH_LIMIT,
        offset: 0,
      })
      return { content: [text(JSON.stringify(chatGptSearchResults(page.results, view)))] }
    },
  )

  server.registerTool(
    'fetch',
    {
      title: 'Read one record (ChatGPT)',
      description:
        'Read one record by id: text, page URL, status, verification date, official sources, attribution.',
      inputSchema: ChatGptFetchInput,
      annotations: READ_ONLY,
      _meta: RECORD_CARD_TOOL_META,
    },
    async ({ id }) => {
      const found = await resolve(id, 'fetch')
      if ('refusal' in found) return found.refusal
      return { content: [text(JSON.stringify(chatGptDocument(found.record, view)))] }
    },
  )

  // Listed by the paged resources/list handler below, not by the template's `list` callback: the
  // SDK's handler calls that callback without the request's cursor and drops its nextCursor.
  const recordTemplate = new ResourceTemplate(RECORD_URI_TEMPLATE, { list: undefined })
  server.registerResource(
    'record',
    recordTemplate,
    { title: 'A record', mimeType: 'application/json' },
    async (uri, variables) => {
      const ref = readRecordRef(String(variables.id))
      const record = 'id' in ref ? await reader.get(ref.id) : undefined
      if (record === undefined) throw new ResourceNotFoundError(uri.href)
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(record) }] }
    },
  )
  server.registerResource(
    'catalogue',
    CATALOGUE_URI,
    { title: 'The catalogue', mimeType: 'application/json' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await reader.catalogue()) },
      ],
    }),
  )
  server.registerResource(
    'guide',
    GUIDE_URI,
    { title: 'Guide for assistants', description: GUIDE.description, mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: guideMarkdown(context.catalogue) }],
    }),
  )
  registerRecordCard(server)
  registerPrompts(server)
  registerCompletion(
    server,
    reader,
    new Set([...PROMPT_COMPLETIONS, completedArgument('ref/resource', RECORD_URI_TEMPLATE, 'id')]),
  )
  // Replaces the handler the SDK installed with the first registerResource (the low-level Server lets
  // a handler be set again); resources/read and resources/templates/list stay the SDK's.
  server.server.setRequestHandler('resources/list', async (request) =>
    listResources(reader, request.params?.cursor),
  )
  return server
}

export type McpServerOptions = Omit<McpContext, 'catalogue' | 'now'> & { now?: () => Date }

/**
 * A server over the snapshot served now: its catalogue (memoised per snapshot by a local reader; one
 * request to a remote one) feeds the instructions, the guide and the cache hints. Before the first
 * load there is none, and the tools answer "unavailable".
 */
export async function buildMcpServer(reader: RecordReader, options: McpServerOptions): Promise<McpServer> {
  const catalogue = await reader.catalogue().catch(() => undefined)
  return createMcpServer(reader, {
    version: options.version,
    recordPage: options.recordPage,
    catalogue,
    now: options.now ?? (() => new Date()),
  })
}

/** At most `max` characters of `text`, cut before a word rather than inside one. */
function firstWords(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.lastIndexOf(' ', max)
  return text.slice(0, cut > max / 2 ? cut : max)
}

/** The records whose titles hold the words an agent sent instead of an id, for its next call. */
async function suggest(reader: RecordReader, words: string): Promise<{ id: string; title: string }[]> {
  try {
    const page = await reader.search({
      q: firstWords(words, LIMITS.maxQueryLength),
      match: 'best',
      limit: 3,
      offset: 0,
    })
    return page.results.map((r) => ({ id: r.id, title: r.title }))
  } catch {
    return [] // words the search refuses (too long, only punctuation) get the lesson without suggestions
  }
}

/** The interpretation's per-result `missing` list, kept to the results an answer cut for size still holds. */
function cutMissing(page: SearchEnvelope, results: readonly Fact[]): Partial<SearchEnvelope> {
  const i = page.interpretation
  if (i?.missing === undefined) return {}
  const kept = new Set(results.map((r) => r.id))
  return { interpretation: { ...i, missing: i.missing.filter((m) => kept.has(m.id)) } }
}

const GUIDE = {
  description:
    'What the records cover, official rules versus explanations, reuse conditions, how to search and cite.',
}
const CATALOGUE_RESOURCE: Resource = {
  uri: CATALOGUE_URI,
  name: 'catalogue',
  title: 'The catalogue',
  mimeType: 'application/json',
}
const GUIDE_RESOURCE: Resource = {
  uri: GUIDE_URI,
  name: 'guide',
  title: 'Guide for assistants',
  description: GUIDE.description,
  mimeType: 'text/markdown',
}

/**
 * One page of resources/list: RESOURCE_PAGE_SIZE records in listing order from the cursor, the guide
 * and the catalogue first on the first page. The cursor is the offset of the page's first record
 * (opaque to clients, as the protocol says). Pages are cut from the snapshot served when each is
 * read, so a publication between two pages may shift the listing, as paging the API with offset does.
 */
async function listResources(
  reader: RecordReader,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const offset = cursor === undefined ? 0 : offsetOfCursor(cursor)
  const page = await reader.list(offset, RESOURCE_PAGE_SIZE)
  const records = page.records.map((r): Resource => ({
    uri: recordUri(r.id),
    name: r.id,
    title: r.title,
    description: r.description,
    mimeType: 'application/json',
    ...(r.modified_at === undefined ? {} : { annotations: { lastModified: r.modified_at } }),
  }))
  const next = offset + page.records.length
  // An empty page ends the listing even below total: a remote API pages no further than its largest offset.
  const nextCursor = page.records.length > 0 && next < page.total ? String(next) : undefined
  return {
    resources: offset === 0 ? [GUIDE_RESOURCE, CATALOGUE_RESOURCE, ...records] : records,
    ...(nextCursor === undefined ? {} : { nextCursor }),
  }
}

function offsetOfCursor(cursor: string): number {
  // The protocol's answer to a cursor the server did not issue: Invalid params (-32602).
  if (!/^[1-9]\d{0,8}$/.test(cursor))
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor ${JSON.stringify(cursor.slice(0, 40))}: pass the nextCursor of the previous page`,
    )
  return Number(cursor)
}
