/**
 * The MCP app (SEP-1865) a host shows beside the answers of search_facts, get_fact and fetch: a record
 * card (title, status, text, official sources, verification age, "à revérifier" when due, the citation
 * to copy) and, for a search, the list of hits, each opening its card. Browser code, bundled with the
 * ext-apps client into one self-contained HTML page by scripts/build-mcp-app.js.
 *
 * It reaches nothing: it reads the tool result the host passes it (ui/notifications/tool-result) and
 * asks the host to open links. Every value from a record is written as text (textContent, attribute
 * values set through the DOM), never as markup, so a hostile record cannot run a script; links are
 * followed only when they are http(s).
 */
import { App } from '@modelcontextprotocol/ext-apps'
import { attributionLine } from '../../core/records/attribution.js'
import { KIND_LABELS_FR } from '../../core/records/kind-labels.js'
import type { Fact, Kind } from '../../core/records/record.js'
import { REVERIFY_PHRASE, ageInWords, needsReverification } from '../../core/records/status.js'

/** What a card shows, from a record (search_facts, get_fact) or from a fetched document (fetch). */
type Card = {
  title: string
  kind: string
  text: string
  url?: string
  verifiedAt?: string
  officialSources: { label: string; url: string }[]
  citation: string
}

type ToolResult = {
  content?: { type: string; text?: string }[]
  structuredContent?: unknown
  isError?: boolean
}

const app = new App({ name: 'reference-records-fiche', version: '1' })
const root = document.getElementById('app')!

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const isRecord = (v: unknown): v is Fact =>
  isObject(v) && typeof v.id === 'string' && typeof v.title === 'string' && typeof v.kind === 'string'
const httpUrl = (v: unknown): string | undefined =>
  typeof v === 'string' && /^https?:\/\//i.test(v) ? v : undefined

function cardOfRecord(r: Fact): Card {
  return {
    title: r.title,
    kind: r.kind,
    text: typeof r.text === 'string' ? r.text : '',
    url: httpUrl(r.url),
    verifiedAt: r.verified_at,
    officialSources: (Array.isArray(r.sources) ? r.sources : [])
      .filter((s) => s.type === 'official')
      .map((s) => ({ label: String(s.label), url: String(s.url) })),
    citation: attributionLine(r),
  }
}

/** fetch's document: {id, title, text, url, metadata: {kind, verified_at, official_sources, attribution, original_url}}. */
function cardOfDocument(d: Record<string, unknown>): Card | undefined {
  const m = isObject(d.metadata) ? d.metadata : {}
  if (typeof d.title !== 'string' || typeof m.kind !== 'string') return undefined
  const sources = Array.isArray(m.official_sources) ? m.official_sources.filter(isObject) : []
  return {
    title: d.title,
    kind: m.kind,
    text: typeof d.text === 'string' ? d.text : '',
    // `url` is the service's page of the record; relative when the service has no public base URL.
    url: httpUrl(d.url) ?? httpUrl(m.original_url),
    verifiedAt: typeof m.verified_at === 'string' ? m.verified_at : undefined,
    officialSources: sources.map((s) => ({ label: String(s.label), url: String(s.url) })),
    citation:
      typeof m.attribution === 'string' ? m.attribution : `Source : ${d.title} — ${String(m.original_url)}`,
  }
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
  return node
}

/** A link the host opens (the app's frame may not navigate); plain text when it is not http(s). */
function link(label: string, url: string | undefined): HTMLElement {
  const safe = httpUrl(url)
  if (safe === undefined) return el('span', label)
  const a = el('a', label, { href: safe, rel: 'noopener noreferrer', target: '_blank' })
  a.addEventListener('click', (event) => {
    event.preventDefault()
    void app.openLink({ url: safe }).catch(() => window.open(safe, '_blank', 'noopener'))
  })
  return a
}

function statusLabel(kind: string): string {
  const label = KIND_LABELS_FR[kind as Kind] ?? { name: 'Explication', note: 'pas une règle officielle' }
  return label.note === undefined ? label.name : `${label.name} — ${label.note}`
}

function renderCard(card: Card, now: Date, back?: () => void): void {
  const main = el('main')
  if (back !== undefined) {
    const button = el('button', '← Retour aux résultats', { type: 'button', class: 'back' })
    button.addEventListener('click', back)
    main.append(button)
  }
  const article = el('article', undefined, { class: 'card' })
  article.append(el('h1', card.title))
  const status = el('p', undefined, { class: `status ${card.kind === 'fact' ? 'official' : 'other'}` })
  status.append(el('strong', statusLabel(card.kind)))
  article.append(status)
  if (card.verifiedAt !== undefined) {
    const verified = el('p', `Vérifiée ${ageInWords(card.verifiedAt, now)} sur le texte officiel`, {
      class: 'verified',
    })
    if (needsReverification({ kind: card.kind as Kind, verified_at: card.verifiedAt }, now))
      verified.append(' ', el('span', REVERIFY_PHRASE, { class: 'reverify' }))
    article.append(verified)
  } else if (card.kind === 'fact')
    article.append(el('p', 'Date de vérification non documentée', { class: 'verified' }))
  for (const paragraph of card.text.split(/\n{2,}/))
    if (paragraph.trim() !== '') article.append(el('p', paragraph))
  if (card.officialSources.length > 0) {
    const section = el('section', undefined, { 'aria-labelledby': 'sources' })
    section.append(el('h2', 'Sources officielles', { id: 'sources' }))
    const list = el('ul')
    for (const source of card.officialSources) {
      const item = el('li')
      item.append(link(source.label, source.url))
      list.append(item)
    }
    section.append(list)
    article.append(section)
  }
  if (card.url !== undefined) {
    const page = el('p')
    page.append(link('Lire la fiche', card.url))
    article.append(page)
  }
  const cite = el('section', undefined, { 'aria-labelledby': 'cite' })
  cite.append(el('h2', 'Citer cette fiche', { id: 'cite' }))
  const citation = el('p', card.citation, { class: 'citation', id: 'citation' })
  const copy = el('button', 'Copier la citation', { type: 'button', 'aria-describedby': 'citation' })
  const said = el('span', '', { role: 'status', class: 'copied' })
  copy.addEventListener('click', () => {
    navigator.clipboard
      .writeText(card.citation)
      .then(() => (said.textContent = 'Citation copiée.'))
      .catch(() => {
        // The frame may not be allowed the clipboard: select the line for the person to copy.
        getSelection()?.selectAllChildren(citation)
        said.textContent = 'Citation sélectionnée : copiez-la (Ctrl+C).'
      })
  })
  cite.append(citation, copy, said)
  article.append(cite)
  main.append(article)
  root.replaceChildren(main)
}

function renderHits(records: Fact[], now: Date): void {
  const main = el('main')
  main.append(el('h1', records.length === 0 ? 'Aucune fiche trouvée' : `Fiches trouvées (${records.length})`))
  const list = el('ul', undefined, { class: 'hits' })
  for (const record of records) {
    const item = el('li')
    const open = el('button', record.title, { type: 'button', class: 'hit' })
    open.addEventListener('click', () =>
      renderCard(cardOfRecord(record), now, () => renderHits(records, now)),
    )
    item.append(open, el('span', statusLabel(record.kind), { class: 'hit-status' }))
    list.append(item)
  }
  main.append(list)
  root.replaceChildren(main)
}

function renderMessage(text: string): void {
  const main = el('main')
  main.append(el('h1', 'Fiche'), el('p', text))
  root.replaceChildren(main)
}

/** Renders what a tool result holds: a search's hits, a record, a fetched document, or its error. */
function render(result: ToolResult, now = new Date()): void {
  const text = result.content?.find((c) => c.type === 'text')?.text
  if (result.isError === true) return renderMessage(text ?? 'La fiche n’a pas pu être lue.')
  const structured = result.structuredContent
  if (isObject(structured) && Array.isArray(structured.results))
    return renderHits(structured.results.filter(isRecord), now)
  if (isRecord(structured)) return renderCard(cardOfRecord(structured), now)
  let parsed: unknown
  try {
    parsed = text === undefined ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const card = isObject(parsed) ? cardOfDocument(parsed) : undefined
  if (card !== undefined) return renderCard(card, now)
  renderMessage('Aucune fiche à afficher.')
}

app.ontoolresult = (result) => render(result as ToolResult)
renderMessage('Chargement de la fiche…')
void app.connect().catch(() => renderMessage('L’hôte n’a pas pu transmettre la fiche.'))
