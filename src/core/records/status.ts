/**
 * What a record is, for a reader who must keep official rules apart from the rest (docs/spec.md §1), as a
 * value a machine can test (`status`) and as words a person or a model can repeat (`statusPhrase`):
 * "règle officielle, vérifiée il y a 4 mois sur le texte officiel". The phrase is French because it is
 * meant to be quoted to the readers of these French records.
 */
import type { Fact, Kind } from './record.js'

export const RECORD_STATUSES = ['official_rule', 'explanation', 'offer', 'organization', 'person'] as const
export type RecordStatus = (typeof RECORD_STATUSES)[number]

/** Each kind's status: only facts are official rules; lessons, method, articles, site pages and tools explain. */
const STATUS_OF_KIND: Readonly<Record<Kind, RecordStatus>> = {
  fact: 'official_rule',
  expertise: 'explanation',
  article: 'explanation',
  lesson: 'explanation',
  page: 'explanation',
  tool: 'explanation',
  offer: 'offer',
  organization: 'organization',
  person: 'person',
}

/** The status of a record; a kind this build does not know (from a newer server) explains, never rules. */
export const statusOf = (record: Pick<Fact, 'kind'>): RecordStatus =>
  STATUS_OF_KIND[record.kind] ?? 'explanation'

/** How each kind is named in a status phrase. */
const KIND_PHRASES: Readonly<Record<Kind, string>> = {
  fact: 'règle officielle',
  expertise: 'méthode, pas une règle officielle',
  article: 'article (explication), pas une règle officielle',
  lesson: 'leçon (explication), pas une règle officielle',
  page: 'page du site, pas une règle officielle',
  tool: 'outil du site, pas une règle officielle',
  offer: 'offre commerciale, pas une règle officielle',
  organization: 'organisation',
  person: 'personne',
}

const DAY_MS = 86_400_000
// "aujourd’hui" and "hier" for days; always a number for months and years ("l’année dernière" would name a calendar year).
const RELATIVE_DAYS = new Intl.RelativeTimeFormat('fr', { numeric: 'auto' })
const RELATIVE = new Intl.RelativeTimeFormat('fr', { numeric: 'always' })

/** Milliseconds of a date (read as midnight UTC) or a date-time; NaN when it does not parse. */
const parseDate = (isoDate: string): number =>
  Date.parse(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate)

/**
 * Whole UTC calendar days from `isoDate` (a date or a date-time) to `now`'s day; 0 for a date after
 * it, undefined when the date does not parse.
 */
export function ageInDays(isoDate: string, now: Date): number | undefined {
  const then = parseDate(isoDate)
  if (Number.isNaN(then)) return undefined
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Math.max(0, Math.floor((today - then) / DAY_MS))
}

/**
 * How long ago a calendar date was, in French words at the scale a reader weighs it: days for the
 * first month ("il y a 12 jours"), then months ("il y a 4 mois"), then years. Days are whole UTC
 * calendar days, so the words change at most once a day. A date after `now` reads as today.
 */
export function ageInWords(isoDate: string, now: Date): string {
  const days = ageInDays(isoDate, now)
  if (days === undefined) return `le ${isoDate}`
  // French apostrophes are typographic in Intl's output ("aujourd’hui"); the pages and texts use the same.
  if (days < 31) return RELATIVE_DAYS.format(-days, 'day')
  const months = Math.floor(days / 30.44)
  if (months < 12) return RELATIVE.format(-months, 'month')
  return RELATIVE.format(-Math.floor(days / 365.25), 'year')
}

/**
 * How long an official rule's verification holds before the rule is flagged "à revérifier": texts
 * change (decrees, renumbering), and a year is the rhythm at which the publisher re-reads its rules.
 * Documented in docs/api.md ("Reusing the records").
 */
export const REVERIFY_AFTER_MONTHS = 12

/**
 * True for an official rule last verified more than REVERIFY_AFTER_MONTHS calendar months before
 * `now` (UTC dates). A rule without a date is not flagged here: it already says its verification is
 * not documented. Explanations are never flagged: they are not checked against the texts.
 */
export function needsReverification(record: Pick<Fact, 'kind' | 'verified_at'>, now: Date): boolean {
  if (record.kind !== 'fact' || record.verified_at === undefined) return false
  const verified = parseDate(record.verified_at)
  if (Number.isNaN(verified)) return false
  return verified < reverifyLimit(now)
}

/** The instant before which a verification is too old on `now` (needsReverification). */
export const reverifyLimit = (now: Date): number =>
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - REVERIFY_AFTER_MONTHS, now.getUTCDate())

/**
 * A record's verification age as the API's `Verification-Age` header field says it: whole days
 * since `verified_at`, with the `reverify` flag past the threshold (an RFC 8941 integer with a
 * boolean parameter, `412;reverify`). Undefined for a record without a verification date.
 */
export function verificationAgeField(
  record: Pick<Fact, 'kind' | 'verified_at'>,
  now: Date,
): string | undefined {
  if (record.verified_at === undefined) return undefined
  const days = ageInDays(record.verified_at, now)
  if (days === undefined) return undefined
  return needsReverification(record, now) ? `${days};reverify` : String(days)
}

/** The flag's words, as the page, the MCP texts and the counts say them. */
export const REVERIFY_PHRASE = 'à revérifier'

/**
 * The status in words: the kind, and how long ago the record was last re-read against its official
 * text ("vérifiée il y a 4 mois sur le texte officiel"), flagged "à revérifier" past the threshold,
 * or for a rule without a date, that nobody says.
 */
export function statusPhrase(record: Pick<Fact, 'kind' | 'verified_at'>, now: Date): string {
  const kind = KIND_PHRASES[record.kind] ?? record.kind
  if (record.verified_at !== undefined) {
    const phrase = `${kind}, vérifiée ${ageInWords(record.verified_at, now)} sur le texte officiel`
    return needsReverification(record, now)
      ? `${phrase}, ${REVERIFY_PHRASE} (vérification de plus de ${REVERIFY_AFTER_MONTHS} mois)`
      : phrase
  }
  // An explanation that cites official texts is not itself checked against them: only a rule lacks a date.
  return record.kind === 'fact' ? `${kind}, date de vérification non documentée` : kind
}
