/**
 * Highlighting the words a search matched, in titles and excerpts. A word of the text is marked when
 * it folds (accents, case, ligatures, light plurals: the index's own `tokenize`) to one of the searched
 * words, so the page marks exactly what the index matched: "Priorités" for a search of "priorite".
 * Written here because highlighters (mark.js and the like) work on the browser's DOM with their own
 * folding, which would disagree with the index's.
 */
import { tokenize } from '../../core/search/tokenize.js'
import { html, type Html } from './html.js'

export type Segment = { text: string; match: boolean }

// Letters, digits and combining marks: a decomposed "é" stays one word, as it does once folded.
const WORD = /[\p{L}\p{N}\p{M}]+/gu
/** Context kept before the first matched word of an excerpt. */
const LEAD_IN = 60

/** The folded forms of `words` (the query's words, corrections and expansions), as the index knows them. */
export function foldedWords(words: readonly string[]): Set<string> {
  return new Set(words.flatMap((w) => tokenize(w)))
}

type Hit = { start: number; end: number; word: string }

function hits(text: string, words: ReadonlySet<string>): Hit[] {
  if (words.size === 0) return []
  const found: Hit[] = []
  for (const m of text.matchAll(WORD)) {
    const folded = tokenize(m[0])[0]
    if (folded !== undefined && words.has(folded)) found.push({ start: m.index, end: m.index + m[0].length, word: folded })
  }
  return found
}

function segments(text: string, found: readonly Hit[], from: number, to: number): Segment[] {
  const out: Segment[] = []
  let at = from
  for (const h of found) {
    if (h.start < from || h.end > to) continue
    if (h.start > at) out.push({ text: text.slice(at, h.start), match: false })
    out.push({ text: text.slice(h.start, h.end), match: true })
    at = h.end
  }
  if (at < to) out.push({ text: text.slice(at, to), match: false })
  return out
}

/** The whole text with its matched words marked (for titles). */
export function highlight(text: string, words: ReadonlySet<string>): Segment[] {
  return segments(text, hits(text, words), 0, text.length)
}

/** Moves `at` back to the start of its word, so an excerpt never starts inside a word. */
const wordStart = (text: string, at: number): number => (at <= 0 ? 0 : text.lastIndexOf(' ', at) + 1)

/**
 * About `maxLength` characters of `text` around the passage holding the most distinct searched
 * words, with "…" where it was cut; the start of the text when nothing matched.
 */
export function excerpt(text: string, words: ReadonlySet<string>, maxLength = 240): Segment[] {
  const flat = text.replace(/\s+/g, ' ').trim()
  const found = hits(flat, words)
  let best = 0
  let bestCount = 0
  for (const h of found) {
    const from = Math.max(0, h.start - LEAD_IN)
    const distinct = new Set(found.filter((o) => o.start >= from && o.end <= from + maxLength).map((o) => o.word)).size
    if (distinct > bestCount) [best, bestCount] = [from, distinct]
  }
  const start = wordStart(flat, best)
  let end = flat.length
  if (start + maxLength < flat.length) {
    const cut = flat.lastIndexOf(' ', start + maxLength)
    end = cut > start ? cut : start + maxLength
  }
  const out = segments(flat, found, start, end)
  if (start > 0) out.unshift({ text: '… ', match: false })
  if (end < flat.length) out.push({ text: ' …', match: false })
  return out
}

/** Segments as markup: matched words in <mark>, everything escaped. */
export const marked = (parts: readonly Segment[]): Html => html`${parts.map((p) => (p.match ? html`<mark>${p.text}</mark>` : p.text))}`
