/**
 * The API's wire model (search envelope, catalogue, error body) and its parameters, defined once.
 * The OpenAPI document, the request validation (HTTP and MCP alike), the MCP tool schemas and the
 * TypeScript types all come from here and from records/record.ts.
 */
import { z } from 'zod'
import { component } from '../components.js'
import { ERROR_CODES } from '../errors.js'
import { FactSchema, KINDS, RecordIdSchema } from '../records/record.js'
import { MATCH_MODES } from '../search/match-mode.js'

export const API_VERSION = '1.4.0'
export const API_PREFIX = '/api/v1'
export const LIMITS = { maxLimit: 50, defaultLimit: 10, maxOffset: 10_000, maxQueryLength: 300 } as const

export const SearchInterpretationSchema = component(
  z.strictObject({
    words: z
      .array(z.string())
      .describe(
        'The words the search required, as typed (after correction), in query order. A phrase with aliases counts as one.',
      ),
    ignored: z
      .array(z.string())
      .describe('Words of the query that were not required: stop words and question words.'),
    corrected: z
      .array(z.strictObject({ from: z.string(), to: z.string() }))
      .describe(
        'Words that matched nothing in the index, replaced by the closest indexed word (or two words run together).',
      ),
    expanded: z
      .array(z.strictObject({ word: z.string(), with: z.array(z.string()) }))
      .describe(
        'Words that also matched other forms of the word or its aliases, with those forms and aliases (only words that did).',
      ),
    relaxed: z
      .array(z.strictObject({ without: z.string(), q: z.string(), total: z.int().positive() }))
      .max(5)
      .describe(
        'Only when total is 0: queries that would match, each the query minus one word, with their totals, most specific (fewest matches) first; empty when none would.',
      ),
    matched: z
      .array(z.string())
      .optional()
      .describe(
        'Only with match=best: the required words that the best-matched records hold (all of words when some record holds them all; empty when no record holds any). total counts the records holding all of these.',
      ),
    left_out: z
      .array(z.string())
      .optional()
      .describe(
        'Only with match=best: the required words that the best-matched records do not hold (words minus matched).',
      ),
    missing: z
      .array(z.strictObject({ id: z.string(), words: z.array(z.string()).min(1) }))
      .optional()
      .describe(
        'Only with match=best: each result of this page that lacks some required words, with the words it lacks. A result not listed holds every required word.',
      ),
  }),
  { id: 'SearchInterpretation', description: 'How q was read: present whenever q is given.' },
)
export type SearchInterpretation = z.infer<typeof SearchInterpretationSchema>

export const SearchEnvelopeSchema = component(
  z.strictObject({
    results: z.array(FactSchema),
    total: z.int().nonnegative().describe('Number of matching records.'),
    limit: z.int().min(1).max(LIMITS.maxLimit),
    offset: z.int().min(0).max(LIMITS.maxOffset),
    interpretation: SearchInterpretationSchema.optional(),
  }),
  { id: 'SearchResult', description: 'A page of matching records.' },
)
export type SearchEnvelope = z.infer<typeof SearchEnvelopeSchema>

export const ErrorBodySchema = component(
  z.strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string().describe('Human-readable; names the parameter at fault.'),
    }),
  }),
  { id: 'Error', description: 'Body of every error response.' },
)

const link = z.string().describe('Absolute URL, or root-relative when no public base URL is configured.')
export const CatalogueSchema = component(
  z.strictObject({
    name: z.string(),
    description: z.string(),
    version: z.literal(API_VERSION),
    records: z.strictObject({
      total: z.int().nonnegative(),
      by_kind: z.strictObject(
        Object.fromEntries(KINDS.map((k) => [k, z.int().nonnegative()])) as Record<
          (typeof KINDS)[number],
          z.ZodInt
        >,
      ),
      to_reverify: z
        .int()
        .nonnegative()
        .optional()
        .describe(
          'Official rules (kind fact) whose verified_at is more than 12 months old today (UTC): flagged "à revérifier" on their page and in the MCP answers.',
        ),
    }),
    updated_at: z.iso.datetime({ offset: true }).describe('When the served snapshot was published.'),
    links: z.strictObject({
      self: link,
      search: link,
      record: link.describe('URI template of one record: replace {id}.'),
      openapi: link,
      download: link
        .optional()
        .describe(
          'Every record of the served snapshot in one NDJSON response (gzip when accepted), when offered.',
        ),
      changes: link
        .optional()
        .describe(
          'The change feed: what each publication added, changed and removed, since a publication or a time.',
        ),
      mcp: link.optional().describe('The MCP (tool-protocol) endpoint, when mounted.'),
      server_json: link
        .optional()
        .describe(
          "The MCP endpoint's entry for the MCP Registry (server.json), when the endpoint is mounted.",
        ),
      server_card: link
        .optional()
        .describe("The MCP endpoint's Server Card (SEP-2127), when the endpoint is mounted."),
      docs: link,
      llms: link
        .optional()
        .describe(
          'llms.txt: what the service offers, for language models and the agents that read them (Markdown).',
        ),
      sitemap: link
        .optional()
        .describe(
          'The sitemap of the record pages, with when each last changed (sitemaps.org), when a public base URL is configured.',
        ),
      dcat: link
        .optional()
        .describe('The dataset described in DCAT (JSON-LD), for public data portals to harvest.'),
      changes_atom: link
        .optional()
        .describe(
          'The latest changes as an Atom feed (French titles, links to the record pages), when a public base URL is configured.',
        ),
    }),
    limits: z.strictObject({
      requests_per_minute: z
        .int()
        .nonnegative()
        .describe('Per client, shared with the MCP server; 0 means no quota.'),
      max_limit: z.int(),
      max_offset: z.int(),
      max_q_length: z.int(),
    }),
    reuse: z.strictObject({ summary: z.string(), attribution: z.string(), contact: z.string() }),
  }),
  { id: 'Catalogue', description: 'What the API offers: record counts, links, limits and reuse conditions.' },
)
export type Catalogue = z.infer<typeof CatalogueSchema>

// Query values arrive as strings; only plain decimal digits become numbers, so "1e1", "+5" and " 5" are refused.
const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v)
const intParam = (min: number, max: number, fallback: number, description: string) => {
  const error = `must be an integer from ${min} to ${max}`
  return z
    .preprocess(digitsToNumber, z.int({ error }).min(min, { error }).max(max, { error }).default(fallback))
    .meta({ description })
}

export const PoLiveSchema = z
  .literal('1', { error: 'must be 1 (or left out, to be redirected to the live read)' })
  .optional()
  .describe('Live read. Without it the answer is a 307 to the same address with po_live=1.')

/**
 * An enumerated parameter takes its values exactly as documented: case is not folded, so each value
 * has one spelling (one cache entry, one ETag) and the OpenAPI `enum` says all there is to know. A
 * value that differs only by case is told the spelling to send.
 */
function enumParam<const T extends readonly [string, ...string[]]>(values: T, expected: string) {
  const error = (issue: { input?: unknown }) => {
    const given = typeof issue.input === 'string' ? issue.input.toLowerCase() : undefined
    const meant = values.find((v) => v.toLowerCase() === given)
    return meant === undefined ? expected : `${expected}; values are case-sensitive: send "${meant}"`
  }
  return z.enum(values, { error })
}

/**
 * `match`: how the required words combine (docs/contract.md "Extensions beyond the spec"). The REST API defaults to `all`, the MCP
 * search tools and the search page to `best`; the values and their meaning are the same everywhere.
 */
export function matchParam(fallback: (typeof MATCH_MODES)[number]) {
  return enumParam(MATCH_MODES, 'must be all or best')
    .default(fallback)
    .describe(
      `How the required words combine (default ${fallback}). all: a record must hold every required word. best: the records holding every required word come first, as with all; after them, or when no record holds them all, the records holding the most of them, rarer words and words in the title weighing more. With best, total counts the records holding the words of the first result (interpretation.matched), which come first; the results then go on with records holding fewer of the words, and interpretation.missing says what each result of the page lacks.`,
    )
}

export const SearchParamsSchema = z.strictObject({
  q: z
    .string()
    .refine((q) => [...q].length <= LIMITS.maxQueryLength, {
      error: `must be at most ${LIMITS.maxQueryLength} characters`,
    })
    .refine((q) => !/\p{Cc}/u.test(q), { error: 'must not contain control characters' })
    .optional()
    .describe(
      'Words to find in title, text, description or references. Accents and case are ignored; question and stop words are ignored; every other word must be present, as itself, another of its forms or an alias; a word found nowhere is corrected. The answer says how q was read (interpretation).',
    )
    .meta({ maxLength: LIMITS.maxQueryLength }),
  region: enumParam(['france'], 'must be france')
    .optional()
    .describe('Only records whose regions hold France.'),
  kind: enumParam(KINDS, `must be one of ${KINDS.join(', ')}`)
    .optional()
    .describe('Only records of this kind.'),
  match: matchParam('all'),
  limit: intParam(1, LIMITS.maxLimit, LIMITS.defaultLimit, 'Page size.'),
  offset: intParam(0, LIMITS.maxOffset, 0, 'Records to skip; page with offset and limit.'),
  po_live: PoLiveSchema,
})
export type SearchParams = z.infer<typeof SearchParamsSchema>

export const NoParamsSchema = z.strictObject({ po_live: PoLiveSchema })
export const FactPathSchema = z.strictObject({ id: RecordIdSchema })
