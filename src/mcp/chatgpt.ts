/**
 * The two tools ChatGPT's connectors and deep research require, in the exact shape they read: `search`
 * answers one text block holding `{"results":[{"id","title","url"}]}`, and `fetch` one text block
 * holding `{"id","title","text","url","metadata"}`. `url` is the record's page for people; `metadata`
 * carries what the reuse conditions ask a reuser to keep: the status (official rule or not), the
 * verification, the official sources and the attribution line.
 */
import { attributionLine } from '../core/records/attribution.js'
import type { Fact } from '../core/records/record.js'
import { statusOf, statusPhrase } from '../core/records/status.js'
import { MAX_ANSWER_CHARS, cutText } from './budget.js'
import type { RenderView } from './render.js'

/** Results of one `search` call: one page of best-matched records. */
export const CHATGPT_SEARCH_LIMIT = 10

export type ChatGptSearchResult = { id: string; title: string; url: string }

export function chatGptSearchResults(
  records: readonly Fact[],
  view: RenderView,
): { results: ChatGptSearchResult[] } {
  return { results: records.map((r) => ({ id: r.id, title: r.title, url: view.recordPage(r) })) }
}

export type ChatGptDocument = {
  id: string
  title: string
  text: string
  url: string
  metadata: Record<string, unknown>
}

/** A record as a fetched document; its text is cut at the answer's budget, with the call that reads on. */
export function chatGptDocument(r: Fact, view: RenderView): ChatGptDocument {
  const { part, next } = cutText(r.text, 0, MAX_ANSWER_CHARS)
  const text =
    next === undefined
      ? part
      : `${part}\n\n[Text cut at ${next} of ${r.text.length} characters: call get_fact with {"id": "${r.id}", "text_from": ${next}} for the rest.]`
  const official = r.sources.filter((s) => s.type === 'official').map((s) => ({ label: s.label, url: s.url }))
  return {
    id: r.id,
    title: r.title,
    text,
    url: view.recordPage(r),
    metadata: {
      kind: r.kind,
      status: statusOf(r),
      status_text: statusPhrase(r, view.now),
      ...(r.verified_at === undefined ? {} : { verified_at: r.verified_at }),
      ...(r.verification_scope === undefined ? {} : { verification_scope: r.verification_scope }),
      ...(r.effective_from === undefined ? {} : { effective_from: r.effective_from }),
      ...(r.modified_at === undefined ? {} : { modified_at: r.modified_at }),
      official_sources: official,
      original_url: r.url,
      attribution: attributionLine(r),
    },
  }
}
