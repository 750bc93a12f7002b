/**
 * GET /api/v1/changes: the change feed's parameters and answer, defined once (OpenAPI document,
 * validation, types), and the answer built from a kept history (core/changes/change-log.ts).
 */
import { z } from 'zod'
import { CHANGE_KINDS, readChanges, type ChangeHistory, type ChangesFrom } from '../changes/change-log.js'
import { component } from '../components.js'
import { RecordIdSchema } from '../records/record.js'
import { API_PREFIX, PoLiveSchema } from './schemas.js'

export const CHANGES_PATH = `${API_PREFIX}/changes`
const CHANGES_LIMITS = { maxLimit: 1_000, defaultLimit: 500 } as const

/** A publication id: PostgreSQL's publication number, or a records file snapshot's 16-hex content version. */
const PUBLICATION_ID = /^(?:\d{1,18}|[0-9a-f]{16})$/
const CURSOR = /^(\d{1,18}|[0-9a-f]{16}):(\d{1,9})$/

const since = z
  .string()
  .refine((v) => PUBLICATION_ID.test(v) || z.iso.datetime({ offset: true }).safeParse(v).success, {
    error:
      "must be a publication id (the X-Publication-Id of the download, or a feed answer's publication.id) or an RFC 3339 date-time such as 2026-01-31T00:00:00Z",
  })
  .optional()
  .describe(
    'Where to start: a publication id (the changes published after it) or an RFC 3339 date-time (the changes of the publications after it). Required unless cursor is given.',
  )

const limitError = `must be an integer from 1 to ${CHANGES_LIMITS.maxLimit}`
export const ChangesParamsSchema = z
  .strictObject({
    since,
    cursor: z
      .string()
      .regex(CURSOR, { error: 'must be the next value of a previous answer' })
      .optional()
      .describe("The previous answer's next: where the following page starts. Replaces since."),
    limit: z
      .preprocess(
        (v) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v),
        z
          .int({ error: limitError })
          .min(1, { error: limitError })
          .max(CHANGES_LIMITS.maxLimit, { error: limitError })
          .default(CHANGES_LIMITS.defaultLimit),
      )
      .meta({ description: 'Changes per page.' }),
    po_live: PoLiveSchema,
  })
  .superRefine((params, ctx) => {
    if (params.since === undefined && params.cursor === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['since'],
        message:
          'is required (a publication id or an RFC 3339 date-time), unless cursor continues a previous answer',
      })
    if (params.since !== undefined && params.cursor !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['cursor'],
        message: 'continues a previous answer on its own: give since or cursor, not both',
      })
  })
export type ChangesParams = z.infer<typeof ChangesParamsSchema>

const address = z.string().describe('Absolute URL, or root-relative when no public base URL is configured.')

const ChangeSchema = component(
  z.strictObject({
    id: RecordIdSchema,
    change: z
      .enum(CHANGE_KINDS)
      .describe(
        'added: new in this publication; changed: its content differs; removed: no longer published.',
      ),
    modified_at: z
      .string()
      .nullable()
      .describe("The record's modified_at (for a removal, the removed version's); null when it has none."),
    publication: z.string().describe('The publication that made this change.'),
    published_at: z.iso.datetime({ offset: true }).describe('When that publication was published.'),
    href: address.describe('The record in the API (404 once removed).'),
    page: address.describe('The record page, to link to when quoting it.'),
  }),
  { id: 'Change', description: "One record's change in one publication." },
)

/** Only its type is read here; registering it as a component puts it in the OpenAPI document. @public */
export const ChangeFeedSchema = component(
  z.strictObject({
    publication: z
      .strictObject({
        id: z.string().describe('The newest publication: follow the feed from it next time.'),
        published_at: z.iso.datetime({ offset: true }),
        checksum: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .describe(
            'SHA-256 (hex) of its records in id order, each JSON text followed by a line feed: the bytes of an NDJSON mirror sorted by id.',
          ),
        records: z.int().nonnegative(),
      })
      .describe('The newest publication, whose records a mirror holds once every change is applied.'),
    changes: z
      .array(ChangeSchema)
      .describe(
        'In publication order, then id order; a record changed in several publications appears once in each.',
      ),
    next: z.string().nullable().describe('Pass it as cursor for the following page; null on the last page.'),
  }),
  { id: 'ChangeFeed', description: 'A page of the changes published after since.' },
)
export type ChangeFeedAnswer = z.infer<typeof ChangeFeedSchema>

/** Where validated parameters say to start reading. */
function changesFrom(params: ChangesParams): ChangesFrom {
  if (params.cursor !== undefined) {
    const [, publication, offset] = CURSOR.exec(params.cursor)!
    return { cursor: { publication: publication!, offset: Number(offset) } }
  }
  const value = params.since!
  return { since: PUBLICATION_ID.test(value) ? { publication: value } : { time: value } }
}

/** One page of the feed; `links` gives a record's API address and its page. */
export function answerChanges(
  history: ChangeHistory,
  params: ChangesParams,
  links: { record: (id: string) => string; page: (id: string) => string },
): ChangeFeedAnswer {
  const page = readChanges(history, changesFrom(params), params.limit)
  return {
    publication: {
      id: page.latest.publication,
      published_at: page.latest.publishedAt,
      checksum: history.checksum,
      records: history.records,
    },
    changes: page.changes.map(({ publication, change }) => ({
      id: change.id,
      change: change.change,
      modified_at: change.modifiedAt,
      publication: publication.publication,
      published_at: publication.publishedAt,
      href: links.record(change.id),
      page: links.page(change.id),
    })),
    next: page.next === undefined ? null : `${page.next.publication}:${page.next.offset}`,
  }
}
