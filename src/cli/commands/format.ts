/**
 * Human output of records. The reuse conditions (docs/spec.md §1) shape it: every record ends with a visible
 * attribution linking to its page, and official rules (with their sources and verification date) are
 * labelled apart from lessons, method and offers, which are marked as not being official rules.
 * A modification date is never shown as a verification.
 */
import type { Fact } from '../../client/index.js'
import { attributionLine } from '../../core/records/attribution.js'
import { KIND_LABELS, isOfficial, provenanceLines } from '../../core/records/provenance.js'

/** `[LESSON · explanation, not an official rule]`: the kind's label, loud enough for a terminal. */
function kindTag(kind: string): string {
  const label = KIND_LABELS[kind as Fact['kind']]
  if (label === undefined) return clean(kind).toUpperCase()
  return label.note === undefined ? label.name.toUpperCase() : `${label.name.toUpperCase()} · ${label.note}`
}

/** The attribution the reuse conditions ask for, with the title made safe for a terminal. */
export const attribution = (record: Pick<Fact, 'title' | 'url'>): string =>
  attributionLine({ title: clean(record.title), url: record.url })

export { isOfficial }

/**
 * Drops control characters (terminal escape sequences included) from text that comes from the
 * service, keeping line breaks and tabs: a record must not be able to drive the user's terminal.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const clean = (text: string): string => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')

const indent = (text: string, prefix: string): string =>
  clean(text)
    .split('\n')
    .map((line) => (line === '' ? '' : prefix + line))
    .join('\n')

/** Sources and verification, from the one set of provenance rules, indented under the record. */
const provenance = (record: Fact, otherSources = false): string[] =>
  provenanceLines(record, { otherSources, now: new Date() }).map((line) => `  ${clean(line)}`)

/** Kind, title, id and link: the first lines of every record shown. */
const heading = (record: Fact): string[] => [
  `[${kindTag(record.kind)}] ${clean(record.title)}`,
  `  ${record.kind} · ${record.id}`,
  `  ${record.url}`,
]

/** A few lines per record, for search results. */
export function formatSummary(record: Fact): string {
  return [...heading(record), ...provenance(record), `  ${attribution(record)}`].join('\n')
}

/** Everything a reader needs from one record, for `get`. */
export function formatDetail(record: Fact): string {
  const lines = [...heading(record), ...provenance(record, true)]
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
