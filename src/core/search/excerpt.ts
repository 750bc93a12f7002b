/**
 * The words a search matched, found in a record's text: whole-text highlighting (titles) and an
 * excerpt around the passage holding the most searched words. A word of the text counts when it folds
 * (accents, case, ligatures, light plurals: the index's own `tokenize`) to one of the searched words,
 * so readers see exactly what the index matched: "Priorités" for a search of "priorite". The search
 * page marks the segments in HTML, the MCP answers in Markdown; both cut the same excerpt.
 * Written here because highlighters (mark.js and the like) work on the browser's DOM with their own
 * folding, which would disagree with the index's.
 */
import type { SearchInterpretation } from '../api/schemas.js'
import type { Fact } from '../records/record.js'
import { tokenize } from './tokenize.js'

export type Segment = { text: string; match: boolean }

// Letters, digits and combining marks: a decomposed "é" stays one word, as it does once folded.
const WORD = /[\p{L}\p{N}\p{M}]+/gu
/** Context kept before the first matched word of an excerpt. */
const LEAD_IN = 60
/**
 * Characters of a text searched for an excerpt: a passage past them is not looked for. It bounds the
 * work one record can cost a page or a tool answer, whatever the size of its text.
 */
export const EXCERPT_SCAN_LIMIT = 20_000

/** The folded forms of `words` (the query's words, corrections and expansions), as the index knows them. */
export function foldedWords(words: readonly string[]): Set<string> {
  return new Set(words.flatMap((w) => tokenize(w)))
}

/** What to highlight for a search: the words it required and the other forms and aliases it matched. */
export function searchedWords(interpretation: SearchInterpretation | undefined): Set<string> {
  return foldedWords(
    interpretation === undefined
      ? []
      : [...interpretation.words, ...interpretation.expanded.flatMap((e) => e.with)],
  )
}

type Hit = { start: number; end: number; word: string }

function hits(text: string, words: ReadonlySet<string>): Hit[] {
  if (words.size === 0) return []
  const found: Hit[] = []
  for (const m of text.matchAll(WORD)) {
    const folded = tokenize(m[0])[0]
    if (folded !== undefined && words.has(folded))
      found.push({ start: m.index, end: m.index + m[0].length, word: folded })
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
 * Where the window of `maxLength` characters holding the most distinct searched words starts: each hit
 * is tried as the window's anchor (LEAD_IN before it), and the hits inside it are counted by a sliding
 * window (two indices over the hits in text order), so the work is linear in the number of hits.
 */
function bestWindowStart(found: readonly Hit[], maxLength: number): number {
  const counts = new Map<string, number>()
  let best = 0
  let bestCount = 0
  let left = 0
  let right = 0
  for (const anchor of found) {
    const from = Math.max(0, anchor.start - LEAD_IN)
    while (right < found.length && found[right]!.end <= from + maxLength) {
      const word = found[right++]!.word
      counts.set(word, (counts.get(word) ?? 0) + 1)
    }
    while (left < right && found[left]!.start < from) {
      const word = found[left++]!.word
      const n = counts.get(word)! - 1
      if (n === 0) counts.delete(word)
      else counts.set(word, n)
    }
    if (counts.size > bestCount) [best, bestCount] = [from, counts.size]
  }
  return best
}

/**
 * About `maxLength` characters of `text` around the passage holding the most distinct searched
 * words, with "…" where it was cut; the start of the text when nothing matched. Only the first
 * EXCERPT_SCAN_LIMIT characters are searched.
 */
export function excerpt(text: string, words: ReadonlySet<string>, maxLength = 240): Segment[] {
  const kept = EXCERPT_SCAN_LIMIT + maxLength
  const flat = text.slice(0, kept).replace(/\s+/g, ' ').trim()
  const textGoesOn = text.length > kept && /\S/.test(text.slice(kept))
  const found = hits(flat.slice(0, EXCERPT_SCAN_LIMIT), words)
  const start = wordStart(flat, bestWindowStart(found, maxLength))
  let end = flat.length
  if (start + maxLength < flat.length) {
    const cut = flat.lastIndexOf(' ', start + maxLength)
    end = cut > start ? cut : start + maxLength
  }
  const out = segments(flat, found, start, end)
  if (start > 0) out.unshift({ text: '… ', match: false })
  if (end < flat.length || textGoesOn) out.push({ text: ' …', match: false })
  return out
}

/** The text an excerpt is cut from: the first of text and description that holds a searched word. */
export function excerptSource(
  record: Pick<Fact, 'text' | 'description'>,
  words: ReadonlySet<string>,
): string {
  const candidates = [record.text, record.description ?? '']
  return (
    candidates.find((t) => words.size > 0 && hits(t.slice(0, EXCERPT_SCAN_LIMIT), words).length > 0) ??
    (record.description || record.text)
  )
}
