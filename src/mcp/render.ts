/**
 * Readable renderings of records for MCP text content. They keep what the reuse rules require
 * (spec §1): the title, the link to the record page, and whether it is an official rule — with its
 * sources and verification date — kept visibly distinct from lessons, method and offers.
 */
import type { Catalogue, SearchEnvelope } from '../http/schemas.js'
import { attributionLine } from '../records/attribution.js'
import type { Fact, Kind } from '../records/record.js'

const KIND_LABEL: Record<Kind, string> = {
  fact: 'Official rule',
  expertise: 'Method / expertise (not an official rule)',
  organization: 'Organization',
  offer: 'Commercial offer (not an official rule)',
  person: 'Person (role)',
  article: 'Article (explanation, not an official rule)',
  lesson: 'Lesson (explanation, not an official rule)',
  page: 'Page',
  tool: 'Tool',
}

const isOfficial = (r: Fact) => r.kind === 'fact' || r.sources.some((s) => s.type === 'official')

function provenance(r: Fact): string[] {
  const lines: string[] = []
  const official = r.sources.filter((s) => s.type === 'official')
  if (official.length > 0) lines.push('Official sources:', ...official.map((s) => `  - ${s.label} <${s.url}>`))
  const others = r.sources.filter((s) => s.type !== 'official')
  if (others.length > 0) lines.push('Other sources:', ...others.map((s) => `  - ${s.label} (${s.type}) <${s.url}>`))
  if (r.verified_at) lines.push(`Verified against the official text on ${r.verified_at}${r.verification_scope ? `: ${r.verification_scope}` : ''}`)
  else if (isOfficial(r)) lines.push('Verification date: not documented')
  if (r.effective_from) lines.push(`In force since ${r.effective_from}`)
  return lines
}


/** One record in full: heading, provenance, text, attribution. */
export function renderRecord(r: Fact): string {
  return [
    `# ${r.title}`,
    `Kind: ${KIND_LABEL[r.kind]} · id ${r.id}`,
    `Link: ${r.url}`,
    ...provenance(r),
    '',
    r.text,
    '',
    attributionLine(r),
  ].join('\n')
}

/** A page of search results: a short entry per record, official rules marked as such. */
export function renderSearch(page: SearchEnvelope): string {
  const from = page.total === 0 ? 0 : page.offset + 1
  const head = `${page.total} matching record(s); showing ${from}–${page.offset + page.results.length}.`
  const entries = page.results.map((r, i) => {
    const lines = [`${page.offset + i + 1}. ${r.title} — ${KIND_LABEL[r.kind]}`, `   id ${r.id} · ${r.url}`]
    if (r.description) lines.push(`   ${r.description}`)
    if (isOfficial(r)) {
      const official = r.sources.filter((s) => s.type === 'official').map((s) => s.label)
      if (official.length > 0) lines.push(`   Official sources: ${official.join('; ')}`)
      lines.push(`   Verified: ${r.verified_at ?? 'not documented'}`)
    }
    return lines.join('\n')
  })
  const more = page.offset + page.results.length < page.total ? `\nMore: call again with offset ${page.offset + page.results.length}.` : ''
  const rules = 'Quote with a visible attribution linking to the record url; keep official rules distinct from lessons, method and offers.'
  return [head, ...entries].join('\n\n') + more + `\n\n${rules}`
}

export function renderCatalogue(c: Catalogue): string {
  const kinds = Object.entries(c.records.by_kind).map(([k, n]) => `${k}: ${n}`).join(', ')
  return [
    `${c.name} ${c.version} — ${c.records.total} records (${kinds}), updated ${c.updated_at}.`,
    c.description,
    `Limits: ${c.limits.requests_per_minute || 'no'} requests per minute per client (shared with the HTTP API); limit ≤ ${c.limits.max_limit}, offset ≤ ${c.limits.max_offset}, q ≤ ${c.limits.max_q_length} characters.`,
    `Reuse: ${c.reuse.summary} Contact: ${c.reuse.contact}.`,
  ].join('\n')
}
