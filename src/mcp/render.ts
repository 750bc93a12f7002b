/**
 * Readable renderings of records for MCP text content, sized for a model (budget.ts). They keep what
 * the reuse rules require (docs/spec.md §1): the title, the link to the record page, and whether it is an
 * official rule — with its sources and verification date — kept visibly distinct from lessons, method
 * and offers. The words and rules come from the core's provenance and status modules, shared with
 * the CLI and the pages; search hits carry the same excerpt as the search page.
 */
import type { Catalogue, SearchEnvelope, SearchInterpretation } from '../core/api/schemas.js'
import { attributionLine } from '../core/records/attribution.js'
import { isOfficial, kindLabel, provenanceLines } from '../core/records/provenance.js'
import type { Fact } from '../core/records/record.js'
import { statusPhrase } from '../core/records/status.js'
import { excerpt, excerptSource, highlight, searchedWords, type Segment } from '../core/search/excerpt.js'
import { EXCERPT_CHARS, MAX_ANSWER_CHARS, SOURCES_PER_HIT, cutText } from './budget.js'

/** How answers link and date: the record's page for people, and the clock that ages verifications. */
export type RenderView = { recordPage(record: Pick<Fact, 'id' | 'url'>): string; now: Date }

/** The default view (tests, a bare renderer): records link to their original page. */
const ORIGINAL_PAGES: RenderView = { recordPage: (r) => r.url, now: new Date() }

/**
 * One record: heading, status, provenance, text, attribution. The text is shown from character
 * `textFrom` and cut at the answer's budget, with the call that reads on.
 */
export function renderRecord(r: Fact, view: RenderView = ORIGINAL_PAGES, textFrom = 0): string {
  const { part, next } = cutText(r.text, textFrom, MAX_ANSWER_CHARS)
  const lines = [
    `# ${r.title}`,
    `Kind: ${kindLabel(r.kind)} · id ${r.id}`,
    `Status: ${statusPhrase(r, view.now)}`,
    `Link: ${r.url}`,
    ...(view.recordPage(r) === r.url ? [] : [`Page on this service: ${view.recordPage(r)}`]),
    ...provenanceLines(r, { otherSources: true }),
    '',
    textFrom === 0
      ? part
      : textFrom >= r.text.length
        ? `[The text ends at character ${r.text.length}: nothing from ${textFrom}.]`
        : `[…text from character ${textFrom}] ${part}`,
  ]
  if (next !== undefined) {
    lines.push(
      '',
      `[Text cut at ${next} of ${r.text.length} characters: call get_fact with {"id": "${r.id}", "text_from": ${next}} for the rest.]`,
    )
  }
  lines.push('', attributionLine(r))
  return lines.join('\n')
}

/**
 * A page of search results: how q was read (the same facts as the envelope's interpretation), then a
 * short entry per record: its status in words, the passage that matched (words in bold), and for an
 * official rule its sources. On no result, the relaxed queries with their counts, so an agent can
 * retry with one that matches rather than guess. Entries stop at the answer's budget: `shown` says how
 * many results the text holds, and the text says the call that gets the others.
 */
export function renderSearch(
  page: SearchEnvelope,
  view: RenderView = ORIGINAL_PAGES,
  tool = 'search_facts',
): { text: string; shown: number } {
  const from = page.results.length === 0 ? 0 : page.offset + 1
  // The first line names the hits the text holds, known only once the entries fit the budget: its
  // room is reserved for the longest it can be (every result shown), then it is written exactly.
  const headLine = (shown: number) =>
    `${page.total} matching record(s); showing ${shown === 0 ? 0 : from}–${page.offset + shown}` +
    (shown < page.results.length
      ? ` (${shown} of this page's ${page.results.length}: the rest from offset ${page.offset + shown}).`
      : '.')
  const interpretation = interpretationLines(page)
  const rules =
    'Quote with a visible attribution linking to the record page; keep official rules distinct from lessons, method and offers.'
  const words = searchedWords(page.interpretation)
  const lacking = new Map((page.interpretation?.missing ?? []).map((m) => [m.id, m.words]))
  const entries: string[] = []
  // Room for the head, the closing lines and the note that the answer was cut.
  const longestHead = [headLine(0), ...interpretation].join('\n')
  let room = MAX_ANSWER_CHARS - longestHead.length - rules.length - 300
  for (const [i, r] of page.results.entries()) {
    const entry = hitEntry(r, page.offset + i + 1, words, lacking.get(r.id), view)
    if (entries.length > 0 && entry.length + 2 > room) break
    entries.push(entry)
    room -= entry.length + 2
  }
  const shown = entries.length
  const nextOffset = page.offset + shown
  const head = [headLine(shown), ...interpretation].join('\n')
  let more = ''
  if (shown < page.results.length) {
    more = `\nAnswer cut at ${MAX_ANSWER_CHARS} characters: showing ${shown} of this page's ${page.results.length} results. For the rest, call ${tool} again with offset ${nextOffset}.`
  } else if (nextOffset < page.total) {
    // Under best match the results go on past total with records holding fewer of the words.
    more = `\nMore: call again with offset ${nextOffset}.`
  }
  return { text: [head, ...entries].join('\n\n') + more + `\n\n${rules}`, shown }
}

function hitEntry(
  r: Fact,
  rank: number,
  words: ReadonlySet<string>,
  lacks: readonly string[] | undefined,
  view: RenderView,
): string {
  const lines = [
    `${rank}. ${markdown(highlight(r.title, words))}`,
    `   Status: ${statusPhrase(r, view.now)}`,
    `   kind ${r.kind} · id ${r.id} · ${view.recordPage(r)}`,
  ]
  if (lacks !== undefined) lines.push(`   Lacks: ${quoted(lacks)}.`)
  const passage = markdown(excerpt(excerptSource(r, words), words, EXCERPT_CHARS))
  if (passage !== '') lines.push(`   ${passage}`)
  if (isOfficial(r)) {
    const official = r.sources.filter((s) => s.type === 'official')
    for (const s of official.slice(0, SOURCES_PER_HIT))
      lines.push(`   Official source: ${s.label} — ${s.url}`)
    if (official.length > SOURCES_PER_HIT)
      lines.push(`   (+${official.length - SOURCES_PER_HIT} more official sources: get_fact lists them)`)
  }
  return lines.join('\n')
}

/** Matched words in bold, as a model reads Markdown. */
const markdown = (parts: readonly Segment[]): string =>
  parts.map((p) => (p.match ? `**${p.text}**` : p.text)).join('')

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ')

function interpretationLines(page: SearchEnvelope): string[] {
  const i: SearchInterpretation | undefined = page.interpretation
  if (i === undefined) return []
  const lines = [`Required words: ${i.words.length > 0 ? quoted(i.words) : 'none'}.`]
  if (i.ignored.length > 0) lines.push(`Ignored (stop or question words): ${quoted(i.ignored)}.`)
  if (i.corrected.length > 0)
    lines.push(
      `Corrected (found nowhere as typed): ${i.corrected.map((c) => `"${c.from}" → "${c.to}"`).join(', ')}.`,
    )
  if (i.expanded.length > 0)
    lines.push(`Also matched: ${i.expanded.map((e) => `"${e.word}" (${e.with.join(', ')})`).join('; ')}.`)
  const leftOut = i.left_out ?? []
  if (leftOut.length > 0 && page.total > 0) {
    lines.push(
      `No record holds every required word: the first ${page.total} hold ${quoted(i.matched ?? [])}, not ${quoted(leftOut)}; ` +
        'the results after them hold fewer (see "Lacks").',
    )
  }
  if (page.total > 0) return lines
  if (i.relaxed.length > 0) {
    const retries = i.relaxed
      .map((r) => `q="${r.q}" (${r.total} record(s), without "${r.without}")`)
      .join('; ')
    lines.push(
      `No record holds every required word. Queries that would match: ${retries}. Retry with one of them.`,
    )
  } else {
    lines.push(
      i.words.length > 1
        ? 'No record holds every required word, and no query without one of them matches either.'
        : 'No record holds this word: try another word for it.',
    )
  }
  return lines
}

export function renderCatalogue(c: Catalogue): string {
  const kinds = Object.entries(c.records.by_kind)
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ')
  return [
    `${c.name} ${c.version} — ${c.records.total} records (${kinds}), updated ${c.updated_at}.`,
    c.description,
    `Limits: ${c.limits.requests_per_minute || 'no'} requests per minute per client (shared with the HTTP API); limit ≤ ${c.limits.max_limit}, offset ≤ ${c.limits.max_offset}, q ≤ ${c.limits.max_q_length} characters.`,
    `Reuse: ${c.reuse.summary} Contact: ${c.reuse.contact}.`,
  ].join('\n')
}
