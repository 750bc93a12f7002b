/**
 * How a record says what it is and what it rests on (docs/spec.md §1): official rules, with their sources
 * and verification date, are kept visibly apart from lessons, method and offers. One set of rules and
 * words for every reader: the CLI, the MCP texts and the pages all render from here.
 */
import type { Fact, Kind } from './record.js'
import { REVERIFY_AFTER_MONTHS, REVERIFY_PHRASE, ageInDays, needsReverification } from './status.js'

/** What each kind is called, and for those that explain or sell, the reminder that they are not official rules. */
export const KIND_LABELS: Readonly<Record<Kind, { name: string; note?: string }>> = {
  fact: { name: 'Official rule' },
  expertise: { name: 'Method', note: 'not an official rule' },
  organization: { name: 'Organization' },
  offer: { name: 'Offer', note: 'commercial, not an official rule' },
  person: { name: 'Person' },
  article: { name: 'Article', note: 'explanation, not an official rule' },
  lesson: { name: 'Lesson', note: 'explanation, not an official rule' },
  page: { name: 'Page' },
  tool: { name: 'Tool' },
}

/** "Lesson (explanation, not an official rule)"; an unknown kind (from a newer server) is shown as given. */
export function kindLabel(kind: string): string {
  const label = KIND_LABELS[kind as Kind]
  if (label === undefined) return kind
  return label.note === undefined ? label.name : `${label.name} (${label.note})`
}

/** An official rule (kind fact), or another record that rests on official texts and says so. */
export const isOfficial = (record: Pick<Fact, 'kind' | 'sources'>): boolean =>
  record.kind === 'fact' || record.sources.some((s) => s.type === 'official')

export type ProvenanceOptions = {
  /** Also list the sources that are not official texts. Default false. */
  otherSources?: boolean
  /** Say how old the verification is on this day, and flag a rule to re-verify. Default: no age. */
  now?: Date
}

/** " — 74 days ago", and the re-verification flag past the threshold (status.ts). */
function verificationAge(record: Fact, now: Date): string {
  const days = ageInDays(record.verified_at!, now)
  if (days === undefined) return ''
  const age = days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`
  return needsReverification(record, now)
    ? ` — ${age}: to re-verify (${REVERIFY_PHRASE}, verified more than ${REVERIFY_AFTER_MONTHS} months ago)`
    : ` — ${age}`
}

/**
 * The provenance of a record as lines of text, items indented by two spaces: official sources,
 * verification, entry into force. For records that rest on no official text, only what they carry.
 * A modification date is never shown here: it is not a verification.
 */
export function provenanceLines(record: Fact, options: ProvenanceOptions = {}): string[] {
  const lines: string[] = []
  const official = record.sources.filter((s) => s.type === 'official')
  if (isOfficial(record)) {
    // A fact is an official rule; another kind only cites official texts and stays an explanation.
    const heading = record.kind === 'fact' ? 'Official sources' : 'Official sources cited'
    lines.push(official.length > 0 ? `${heading}:` : `${heading}: none listed`)
    for (const s of official) lines.push(`  - ${s.label} — ${s.url}`)
  }
  const others = record.sources.filter((s) => s.type !== 'official')
  if (options.otherSources && others.length > 0) {
    lines.push('Other sources (not official texts):')
    for (const s of others) lines.push(`  - ${s.label} (${s.type}) — ${s.url}`)
  }
  if (record.verified_at !== undefined) {
    const scope = record.verification_scope === undefined ? '' : ` (scope: ${record.verification_scope})`
    const age = options.now === undefined ? '' : verificationAge(record, options.now)
    lines.push(`Verified against the official text on ${record.verified_at}${age}${scope}`)
  } else if (isOfficial(record)) {
    lines.push('Verification date: not documented')
  }
  if (record.effective_from !== undefined) lines.push(`In force since ${record.effective_from}`)
  return lines
}
