/**
 * Human output of records. The reuse conditions (spec §1) shape it: every record ends with a visible
 * attribution linking to its page, and official rules (with their sources and verification date) are
 * labelled apart from lessons, method and offers, which are marked as not being official rules.
 * A modification date is never shown as a verification.
 */
import type { Fact, Kind } from '../../records/record.js'
import { attributionLine } from '../../records/attribution.js'

/** Label of each kind, and for those that explain or sell, a reminder that they are not official rules. */
const KIND_LABEL: Record<Kind, string> = {
  fact: 'OFFICIAL RULE',
  expertise: 'METHOD · not an official rule',
  organization: 'ORGANIZATION',
  offer: 'OFFER · commercial, not an official rule',
  person: 'PERSON',
  article: 'ARTICLE · explanation, not an official rule',
  lesson: 'LESSON · explanation, not an official rule',
  page: 'PAGE',
  tool: 'TOOL',
}

/** The attribution the reuse conditions ask for, with the title made safe for a terminal. */
export const attribution = (record: Pick<Fact, 'title' | 'url'>): string =>
  attributionLine({ title: clean(record.title), url: record.url })

/** Official rules: records of kind fact, and records that rest on an official source. */
export const isOfficial = (record: Fact): boolean =>
  record.kind === 'fact' || record.sources.some((s) => s.type === 'official')

/**
 * Drops control characters (terminal escape sequences included) from text that comes from the
 * service, keeping line breaks and tabs: a record must not be able to drive the user's terminal.
 */
export const clean = (text: string): string => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')

const indent = (text: string, prefix: string): string =>
  clean(text)
    .split('\n')
    .map((line) => (line === '' ? '' : prefix + line))
    .join('\n')

/** Sources and verification of an official rule; nothing for other records. */
function provenance(record: Fact): string[] {
  if (!isOfficial(record)) return []
  const official = record.sources.filter((s) => s.type === 'official')
  // A fact is an official rule; another kind only cites official texts and stays an explanation.
  const heading = record.kind === 'fact' ? 'Official sources' : 'Official sources cited'
  const lines = [official.length > 0 ? `  ${heading}:` : `  ${heading}: none listed`]
  for (const s of official) lines.push(`    - ${clean(s.label)} — ${s.url}`)
  if (record.verified_at === undefined) lines.push('  Verification date: not documented')
  else {
    const scope =
      record.verification_scope === undefined ? '' : ` (scope: ${clean(record.verification_scope)})`
    lines.push(`  Verified on ${record.verified_at}${scope}`)
  }
  if (record.effective_from !== undefined) lines.push(`  In force since ${record.effective_from}`)
  return lines
}

/** A few lines per record, for search results. */
export function formatSummary(record: Fact): string {
  return [
    `[${KIND_LABEL[record.kind] ?? clean(String(record.kind)).toUpperCase()}] ${clean(record.title)}`,
    `  ${record.kind} · ${record.id}`,
    `  ${record.url}`,
    ...provenance(record),
    `  ${attribution(record)}`,
  ].join('\n')
}

/** Everything a reader needs from one record, for `get`. */
export function formatDetail(record: Fact): string {
  const lines = [formatSummary(record).split('\n').slice(0, -1).join('\n')]
  const others = record.sources.filter((s) => s.type !== 'official')
  if (others.length > 0) {
    lines.push('  Other sources (not official texts):')
    for (const s of others) lines.push(`    - ${clean(s.label)} (${s.type}) — ${s.url}`)
  }
  if (record.chapter !== undefined)
    lines.push(`  Chapter ${record.chapter.number}: ${clean(record.chapter.title)}`)
  if (record.modified_at !== undefined)
    lines.push(`  Last modified ${record.modified_at} (a modification, not a verification)`)
  if (record.description !== undefined) lines.push('', indent(record.description, '  '))
  lines.push('', indent(record.text, '  '))
  if (record.bibliography !== undefined && record.bibliography.length > 0) {
    lines.push('', '  References:', ...record.bibliography.map((b) => `    - ${clean(b)}`))
  }
  if (record.related !== undefined && record.related.length > 0) {
    lines.push('', '  Related:', ...record.related.map((r) => `    - ${clean(r.title)} — ${r.url}`))
  }
  lines.push('', attribution(record))
  return lines.join('\n')
}

/** The heading of a search result: how many match, and which ones are shown. */
export function formatSearchHeading(
  q: string | undefined,
  total: number,
  offset: number,
  shown: number,
): string {
  const what = q === undefined ? '' : ` "${clean(q)}"`
  const count = `${total} record${total === 1 ? '' : 's'} match${total === 1 ? 'es' : ''}${what}`
  if (shown === 0) return offset > 0 && total > 0 ? `${count}; none at offset ${offset}` : count
  const more = offset + shown < total ? `; next page: --offset ${offset + shown}` : ''
  return `${count} (showing ${offset + 1}–${offset + shown}${more})`
}
