/**
 * The size of a tool answer. Clients cap what they pass a model (Claude Code: 25 000 tokens per tool
 * answer) and every character costs the model context, so each answer's text stays under
 * MAX_ANSWER_CHARS, and says, when it was cut, what was left out and the call that gets it.
 */

/** Characters of text in one tool answer (about 2 000 tokens of French). */
export const MAX_ANSWER_CHARS = 8000
/** Characters of an excerpt in a search hit. */
export const EXCERPT_CHARS = 300
/** Official sources listed per search hit; the record lists them all. */
export const SOURCES_PER_HIT = 3

/**
 * `text` from character `from`, at most `max` characters, cut at a space when one is near the end
 * (never inside a word when it can help it); `next` is where the rest starts, if any is left.
 */
export function cutText(text: string, from: number, max: number): { part: string; next?: number } {
  const start = Math.min(Math.max(0, from), text.length)
  if (text.length - start <= max) return { part: text.slice(start) }
  let end = start + max
  const space = text.lastIndexOf(' ', end)
  if (space > start + max * 0.8) end = space + 1
  return { part: text.slice(start, end), next: end }
}
