/**
 * The wire format of the API, as plain TypeScript types: what the client sends and receives. The
 * client owns them so that `reference-records/client` carries no validation library, not even in its
 * type declarations; a type-level test (test/types/wire.test.ts) proves they equal the types the
 * server infers from its one schema, so they cannot drift.
 */

/** The nine kinds, in the spec's order. */
export type Kind =
  'fact' | 'expertise' | 'organization' | 'offer' | 'person' | 'article' | 'lesson' | 'page' | 'tool'

/** A source of a record. `official` marks a legal or governmental text. */
export type Source = { url: string; label: string; type: 'official' | 'operator' | 'brand' | 'source' }

/** Video displayed on a lesson, with its structured-data values; no transcript. */
type Video = {
  youtube_id?: string
  title?: string
  description?: string
  url?: string
  embed_url?: string
  thumbnail_url?: string
  duration?: string
  duration_seconds?: number
  upload_date?: string
  chapters?: { start_seconds: number; title: string; url: string }[]
}

/** schema.org-flavoured and open: the listed properties are typed, others pass through. */
type OrganizationData = {
  [key: string]: unknown
  legal_name?: string
  address?: string | Record<string, unknown>
  telephone?: string
  same_as?: string[]
}
type PersonData = { [key: string]: unknown; job_title?: string; affiliation?: string }
type OfferData = {
  [key: string]: unknown
  price?: number | string
  price_currency?: string
  valid_from?: string
  valid_through?: string
}

/** A reference record (the spec's Fact), with its link, sources and verification fields. */
export type Fact = {
  id: string
  kind: Kind
  title: string
  text: string
  description?: string
  url: string
  regions: string[]
  verified_at?: string
  effective_from?: string
  modified_at?: string
  evidence_kind?: 'product' | 'method' | 'declaration' | 'analysis'
  verification_scope?: string
  bibliography?: string[]
  chapter?: { number: number; title: string }
  image?: string
  video?: Video
  organization_data?: OrganizationData
  person_data?: PersonData
  offer_data?: OfferData
  sources: Source[]
  related?: { title: string; url: string; text: string }[]
}

/** How q was read: present whenever q is given (docs/api.md, "Matching"). */
export type SearchInterpretation = {
  /** The words the search required, as typed (after correction), in query order. */
  words: string[]
  /** Words of the query that were not required: stop words and question words. */
  ignored: string[]
  /** Words that matched nothing in the index, replaced by the closest indexed word. */
  corrected: { from: string; to: string }[]
  /** Words that also matched other forms or aliases, with those (only words that did). */
  expanded: { word: string; with: string[] }[]
  /** Only when total is 0: the query minus one word, with its total; at most 5, most specific first. */
  relaxed: { without: string; q: string; total: number }[]
  /** Only with match=best: the required words the best-matched records hold (total counts those records). */
  matched?: string[]
  /** Only with match=best: the required words the best-matched records do not hold. */
  left_out?: string[]
  /** Only with match=best: each result of the page that lacks some required words, with those words. */
  missing?: { id: string; words: string[] }[]
}

/** A page of matching records. */
export type SearchEnvelope = {
  results: Fact[]
  total: number
  limit: number
  offset: number
  interpretation?: SearchInterpretation
}

/** What the API offers: record counts, links, limits and reuse conditions. */
export type Catalogue = {
  name: string
  description: string
  version: '1.4.0'
  /** `to_reverify`: official rules whose verification is more than 12 months old today. */
  records: { total: number; by_kind: Record<Kind, number>; to_reverify?: number }
  updated_at: string
  /**
   * `download`: every record in one NDJSON response, when the service offers it. `server_json` and
   * `server_card`: the MCP endpoint described for registries and clients; `llms`: llms.txt;
   * `sitemap`: the record pages for crawlers (on a public base URL only); `dcat`: the DCAT description;
   * `changes`: the change feed; `changes_atom`: its latest changes as Atom (on a public base URL only).
   */
  links: {
    self: string
    search: string
    record: string
    openapi: string
    download?: string
    changes?: string
    mcp?: string
    server_json?: string
    server_card?: string
    docs: string
    llms?: string
    sitemap?: string
    dcat?: string
    changes_atom?: string
  }
  limits: { requests_per_minute: number; max_limit: number; max_offset: number; max_q_length: number }
  reuse: { summary: string; attribution: string; contact: string }
}

/** One record's change in one publication (GET /changes). */
export type Change = {
  id: string
  change: 'added' | 'changed' | 'removed'
  modified_at: string | null
  publication: string
  published_at: string
  href: string
  page: string
}

/** A page of the change feed. */
export type ChangeFeed = {
  publication: { id: string; published_at: string; checksum: string; records: number }
  changes: Change[]
  next: string | null
}

/** Parameters of GET /changes: `since` to start, `cursor` (a previous page's `next`) to go on. */
export type ChangesQuery = { since?: string; cursor?: string; limit?: number }

/** The error codes of the contract (docs/contract.md "Errors"). */
export type ErrorCode =
  | 'invalid_parameter'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error'
  | 'gone'

/** Body of every error response. */
export type ErrorBody = { error: { code: ErrorCode; message: string } }

/**
 * Search parameters (docs/spec.md §4.3); `po_live` is the client's business. `match` is this API's
 * extension: `all` (the default) or `best` (docs/api.md, "Best match").
 */
export type SearchParameters = {
  q?: string
  kind?: Kind
  region?: 'france'
  match?: 'all' | 'best'
  limit?: number
  offset?: number
}
