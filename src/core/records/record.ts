/**
 * The one definition of a record (docs/spec.md §2, docs/contract.md "Record fields left open").
 *
 * Why zod 4 rather than TypeBox: the same object gives us runtime validation of records files and
 * request parameters, the static types (`z.infer`), JSON Schema 2020-12 for the OpenAPI 3.1 document
 * (`z.toJSONSchema`), and it is what the MCP SDK accepts for tool input/output schemas. TypeBox would
 * give JSON Schema first and types second, but the MCP SDK would then need a zod copy of every shape,
 * which is exactly the drift this module exists to prevent.
 */
import { z } from 'zod'
import { component } from '../components.js'
import { httpUrlProblem, isRecordUrl } from './http-url.js'
import { RECORD_BOUNDS as B } from './record-bounds.js'

/** The nine kinds, in the spec's order; this order is also the order of an unfiltered listing. */
export const KINDS = [
  'fact',
  'expertise',
  'organization',
  'offer',
  'person',
  'article',
  'lesson',
  'page',
  'tool',
] as const
export type Kind = (typeof KINDS)[number]
export const KindSchema = component(z.enum(KINDS), { id: 'Kind', description: 'Kind of record.' })

export const ID_PATTERN = /^(?:(?:expertise-)?fait|page|brand|offer|person)-[a-f0-9]{16}$/

/** Which id prefix each kind carries (docs/contract.md "Record fields left open", ids); a record whose prefix disagrees is refused. */
export const ID_PREFIX_BY_KIND: Readonly<Record<Kind, string>> = {
  fact: 'fait-',
  expertise: 'expertise-fait-',
  organization: 'brand-',
  offer: 'offer-',
  person: 'person-',
  article: 'page-',
  lesson: 'page-',
  page: 'page-',
  tool: 'page-',
}

export const RecordIdSchema = component(
  z
    .string()
    .regex(
      ID_PATTERN,
      'must be a prefix (fait-, expertise-fait-, page-, brand-, offer-, person-) and 16 lowercase hex digits',
    ),
  { id: 'RecordId', example: 'fait-3f2a9c1d4e5b6a70' },
)

// Links must be http(s), as the URL parser writes them (http-url.ts): a records file must not be able
// to smuggle `javascript:` URLs, or quotes and angle brackets, to reusers. A format of its own rather
// than z.url(), which trims and strips what it is given: a URL is refused, never rewritten.
const httpUrl = () =>
  z
    .stringFormat('uri', isRecordUrl, {
      error: (issue) => httpUrlProblem(String(issue.input)) ?? 'must be an absolute http(s) URL',
    })
    .max(B.url)
// Every string and array is bounded (record-bounds.ts): a record's cost in every answer grows with it.
const nonEmpty = () => z.string().trim().min(1).max(B.shortText)
const shortText = () => z.string().max(B.shortText)
const longText = () => z.string().max(B.longText)
const items = <T extends z.ZodType>(item: T) => z.array(item).max(B.items)
// Unknown keys are kept out of published records: strict objects catch typos in a records file.
const strict = z.strictObject

const SourceSchema = component(
  strict({
    url: httpUrl(),
    label: nonEmpty(),
    type: z.enum(['official', 'operator', 'brand', 'source']),
  }),
  { id: 'Source', description: 'A source of the record. `official` marks a legal or governmental text.' },
)

const VideoSchema = component(
  strict({
    youtube_id: shortText().optional(),
    title: shortText().optional(),
    description: longText().optional(),
    url: httpUrl().optional(),
    embed_url: httpUrl().optional(),
    thumbnail_url: httpUrl().optional(),
    duration: shortText().optional(),
    duration_seconds: z.int().nonnegative().optional(),
    upload_date: shortText().optional(),
    chapters: items(
      strict({ start_seconds: z.int().nonnegative(), title: shortText(), url: httpUrl() }),
    ).optional(),
  }),
  {
    id: 'Video',
    description: 'Video displayed on a lesson, with its structured-data values; no transcript.',
  },
)

const ChapterSchema = component(strict({ number: z.int().nonnegative(), title: nonEmpty() }), {
  id: 'Chapter',
  description: 'Course chapter of a lesson.',
})

const RelatedSchema = component(strict({ title: nonEmpty(), url: httpUrl(), text: longText() }), {
  id: 'Related',
  description: 'A related record or page.',
})

// schema.org-flavoured, open objects (docs/contract.md "Record fields left open"): the listed properties are typed, others pass through.
const OrganizationDataSchema = component(
  z.looseObject({
    legal_name: shortText().optional(),
    address: z.union([longText(), z.record(z.string(), z.unknown())]).optional(),
    telephone: shortText().optional(),
    same_as: items(httpUrl()).optional(),
  }),
  { id: 'OrganizationData' },
)

const PersonDataSchema = component(
  z.looseObject({ job_title: shortText().optional(), affiliation: shortText().optional() }),
  {
    id: 'PersonData',
  },
)

const OfferDataSchema = component(
  z.looseObject({
    price: z.union([z.number().nonnegative(), shortText()]).optional(),
    price_currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')
      .optional(),
    valid_from: z.iso.date().optional(),
    valid_through: z.iso.date().optional(),
  }),
  { id: 'OfferData' },
)

/**
 * A record's fields, without the rules that span fields (`recordRuleIssues`): FactSchema adds those.
 * Kept apart so that the build's compiled check (validate.ts, fast-parse.ts) derives from the same
 * fields and applies the same rules.
 */
export const RecordFieldsSchema = strict({
  id: RecordIdSchema,
  kind: KindSchema,
  title: nonEmpty(),
  text: z.string().max(B.text),
  description: longText().optional(),
  url: httpUrl().describe('Link to the original page of the record.'),
  regions: items(nonEmpty()).describe(
    "Territory declared in the record. Official rules and lessons carry 'France'.",
  ),
  verified_at: z.iso.date().optional().describe('When an official rule was last re-read against its text.'),
  effective_from: z.iso.date().optional(),
  modified_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('RFC 3339 date-time; not a verification.'),
  evidence_kind: z.enum(['product', 'method', 'declaration', 'analysis']).optional(),
  verification_scope: z
    .string()
    .max(500)
    .optional()
    .describe('Scope of the verification; only with verified_at.'),
  bibliography: items(z.string().trim().min(1).max(B.longText)).optional(),
  chapter: ChapterSchema.optional(),
  image: httpUrl().optional(),
  video: VideoSchema.optional(),
  organization_data: OrganizationDataSchema.optional(),
  person_data: PersonDataSchema.optional(),
  offer_data: OfferDataSchema.optional(),
  sources: items(SourceSchema),
  related: items(RelatedSchema).optional(),
})

/** The problems of a record whose fields are each valid, with the rules that span fields; none when it is valid. */
export function recordRuleIssues(
  record: z.output<typeof RecordFieldsSchema>,
): { path: [string]; message: string }[] {
  const issues: { path: [string]; message: string }[] = []
  const prefix = ID_PREFIX_BY_KIND[record.kind]
  // `page-` is a suffix of nothing else, but `fait-` is a suffix of `expertise-fait-`: compare exactly.
  const actual = record.id.startsWith('expertise-fait-')
    ? 'expertise-fait-'
    : record.id.slice(0, record.id.indexOf('-') + 1)
  if (actual !== prefix)
    issues.push({
      path: ['id'],
      message: `a record of kind "${record.kind}" must have an id starting with "${prefix}"`,
    })
  if (record.verification_scope !== undefined && record.verified_at === undefined) {
    issues.push({ path: ['verification_scope'], message: 'is only allowed together with verified_at' })
  }
  return issues
}

export const FactSchema = component(
  RecordFieldsSchema.superRefine((record, ctx) => {
    for (const issue of recordRuleIssues(record)) ctx.addIssue({ code: 'custom', ...issue })
  }),
  { id: 'Fact', description: 'A reference record, with its link, sources and verification fields.' },
)

/** A published record. Immutable once loaded. */
export type Fact = z.infer<typeof FactSchema>
