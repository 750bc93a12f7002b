/**
 * What an assistant must know before it answers from these records: what they cover (counts per
 * kind), that official rules are distinct from explanations and offers, the reuse conditions, and to
 * search first and cite the record page. Public-data MCP servers whose instructions said none of this
 * saw models conclude that data was missing without searching. Two renderings of the same facts: the
 * `instructions` sent at initialization (kept under MAX_INSTRUCTIONS_BYTES: clients cut longer ones),
 * and a Markdown guide resource.
 */
import type { Catalogue } from '../core/api/schemas.js'
import type { Kind } from '../core/records/record.js'

export const GUIDE_URI = 'reference-records://guide'
/** Clients truncate long instructions (Claude Code cuts at 2 048 characters); a test holds them under this. */
export const MAX_INSTRUCTIONS_BYTES = 2048

/** The kinds as an assistant should read them, most consulted first: [one, many, what they are]. */
const KIND_LINES: readonly [Kind, string, string, string][] = [
  [
    'fact',
    'official rule',
    'official rules',
    ' (road rules, each with its official sources and the date it was last re-read against them)',
  ],
  ['lesson', 'lesson', 'lessons', ' (explanations, not official rules)'],
  ['expertise', 'method record', 'method records', ' (not official rules)'],
  ['article', 'article', 'articles', ' (explanations)'],
  ['offer', 'offer', 'offers', ' (commercial)'],
  ['organization', 'organization', 'organizations', ''],
  ['person', 'person', 'people', ''],
  ['page', 'site page', 'site pages', ''],
  ['tool', 'tool', 'tools', ''],
]

const coverage = (catalogue: Catalogue | undefined): string[] =>
  catalogue === undefined
    ? [
        'official rules with their sources and verification dates, lessons, method, articles, offers, the organization and its people',
      ]
    : KIND_LINES.filter(([kind]) => catalogue.records.by_kind[kind] > 0).map(([kind, one, many, what]) => {
        const n = catalogue.records.by_kind[kind]
        return `${n} ${n === 1 ? one : many}${what}`
      })

const STEPS = [
  'Search first (search_facts, or search): send the question in French as the user asked it; a whole sentence works. Never conclude that a rule is not covered before searching, and retry with other words (an everyday word, the legal term) when the first search misses.',
  'Read what you quote (get_fact, or fetch): a hit shows an excerpt; the record holds the whole text and its sources.',
  "Keep official rules (kind fact) distinct from lessons, method and offers, and say which is which; give a rule's verification date. When in doubt, the official text prevails.",
  'Cite every record you use with a visible attribution linking to its page ("Source : <title> — <page>"), and the official sources of a rule.',
]

/** The `instructions` of the initialization result: the guide in short. */
export function instructions(catalogue: Catalogue | undefined): string {
  const when = catalogue === undefined ? '' : `, published ${catalogue.updated_at.slice(0, 10)}`
  return [
    `Public records of a French driving-licence training website, in French${when}: ${coverage(catalogue).join('; ')}.`,
    ...STEPS.map((step, i) => `${i + 1}. ${step}`),
    `Reuse: quoting and summarising are allowed with that attribution; full republication of a course needs permission. Full guide: resource ${GUIDE_URI}.`,
  ].join('\n')
}

/** The guide resource, in Markdown. */
export function guideMarkdown(catalogue: Catalogue | undefined): string {
  const lines = ['# Reference records: a guide for assistants', '']
  if (catalogue === undefined) {
    lines.push('No records are loaded yet; retry shortly.', '')
  } else {
    lines.push(
      `${catalogue.description}`,
      '',
      `${catalogue.records.total} records, published ${catalogue.updated_at}:`,
      '',
    )
    for (const line of coverage(catalogue)) lines.push(`- ${line}`)
    lines.push('')
  }
  lines.push('## How to answer from them', '', ...STEPS.map((step, i) => `${i + 1}. ${step}`), '')
  lines.push(
    '## Statuses',
    '',
    'Each hit says what the record is: `official_rule` (kind fact: the rule as the official texts state it, with those texts as sources), ' +
      '`explanation` (lessons, method, articles, site pages and tools: how to apply or learn a rule, not the rule itself), ' +
      "`offer` (commercial), `organization`, `person`. A rule's verification date says when it was last re-read against its official text; " +
      'it is not the date it changed.',
    '',
  )
  if (catalogue !== undefined) {
    lines.push(
      '## Reuse conditions',
      '',
      catalogue.reuse.summary,
      '',
      `Attribution: \`${catalogue.reuse.attribution}\`. Contact: ${catalogue.reuse.contact}.`,
      '',
    )
    const quota = catalogue.limits.requests_per_minute
    lines.push(
      '## Limits',
      '',
      quota > 0
        ? `${quota} requests per minute per client, shared with the HTTP API (${catalogue.links.self}).`
        : 'No request quota.',
      '',
    )
  }
  return lines.join('\n')
}
