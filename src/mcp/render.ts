/**
 * Readable renderings of records for MCP text content. They keep what the reuse rules require
 * (spec §1): the title, the link to the record page, and whether it is an official rule — with its
 * sources and verification date — kept visibly distinct from lessons, method and offers. The words
 * and rules come from the core's provenance module, shared with the CLI.
 */
import type { Catalogue, SearchEnvelope, SearchInterpretation } from '../core/api/schemas.js'
import { attributionLine } from '../core/records/attribution.js'
import { isOfficial, kindLabel, provenanceLines } from '../core/records/provenance.js'
import type { Fact } from '../core/records/record.js'

/** One record in full: heading, provenance, text, attribution. */
export function renderRecord(r: Fact): string {
  return [
    `# ${r.title}`,
    `Kind: ${kindLabel(r.kind)} · id ${r.id}`,
    `Link: ${r.url}`,
    ...provenanceLines(r, { otherSources: true }),
    '',
    r.text,
    '',
    attributionLine(r),
  ].join('\n')
}

/**
 * A page of search results: how q was read (the same facts as the envelope's interpretation), then a
 * short entry per record, official rules marked as such. On no result, the relaxed queries with
 * their counts, so an agent can retry with one that matches rather than guess.
 */
export function renderSearch(page: SearchEnvelope): string {
  const from = page.total === 0 ? 0 : page.offset + 1
  const head = [`${page.total} matching record(s); showing ${from}–${page.offset + page.results.length}.`, ...interpretationLines(page)].join('\n')
  const lacking = new Map((page.interpretation?.missing ?? []).map((m) => [m.id, m.words]))
  const entries = page.results.map((r, i) => {
    const lines = [`${page.offset + i + 1}. ${r.title} — ${kindLabel(r.kind)}`, `   id ${r.id} · ${r.url}`]
    const lacks = lacking.get(r.id)
    if (lacks !== undefined) lines.push(`   Lacks: ${quoted(lacks)}.`)
    if (r.description) lines.push(`   ${r.description}`)
    if (isOfficial(r)) lines.push(...provenanceLines(r).map((line) => `   ${line}`))
    return lines.join('\n')
  })
  // Under best match the results go on past total with records holding fewer of the words.
  const more = page.offset + page.results.length < page.total ? `\nMore: call again with offset ${page.offset + page.results.length}.` : ''
  const rules = 'Quote with a visible attribution linking to the record url; keep official rules distinct from lessons, method and offers.'
  return [head, ...entries].join('\n\n') + more + `\n\n${rules}`
}

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ')

function interpretationLines(page: SearchEnvelope): string[] {
  const i: SearchInterpretation | undefined = page.interpretation
  if (i === undefined) return []
  const lines = [`Required words: ${i.words.length > 0 ? quoted(i.words) : 'none'}.`]
  if (i.ignored.length > 0) lines.push(`Ignored (stop or question words): ${quoted(i.ignored)}.`)
  if (i.corrected.length > 0) lines.push(`Corrected (found nowhere as typed): ${i.corrected.map((c) => `"${c.from}" → "${c.to}"`).join(', ')}.`)
  if (i.expanded.length > 0) lines.push(`Also matched: ${i.expanded.map((e) => `"${e.word}" (${e.with.join(', ')})`).join('; ')}.`)
  const leftOut = i.left_out ?? []
  if (leftOut.length > 0 && page.total > 0) {
    lines.push(
      `No record holds every required word: the first ${page.total} hold ${quoted(i.matched ?? [])}, not ${quoted(leftOut)}; ` +
        'the results after them hold fewer (see "Lacks").',
    )
  }
  if (page.total > 0) return lines
  if (i.relaxed.length > 0) {
    const retries = i.relaxed.map((r) => `q="${r.q}" (${r.total} record(s), without "${r.without}")`).join('; ')
    lines.push(`No record holds every required word. Queries that would match: ${retries}. Retry with one of them.`)
  } else {
    lines.push(i.words.length > 1 ? 'No record holds every required word, and no query without one of them matches either.' : 'No record holds this word: try another word for it.')
  }
  return lines
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
