/**
 * Word folding shared by the index and the queries (CONTRACT.md "Search semantics"): both sides must
 * fold identically, or a word would be indexed under one form and searched under another.
 */

// The French elisions the contract names; only dropped when written with an apostrophe, because bare
// "c" or "d" are real words here (permis C, permis D).
const ELISION = /(?<![\p{L}\p{N}])(?:qu|[ldnsjcmt])['’ʼ]/giu
const COMBINING_MARKS = /\p{M}+/gu
const NON_WORD = /[^\p{L}\p{N}]+/u

/** Folds accents, case and the œ/æ ligatures: "Cœur À" → "coeur a". */
export function fold(text: string): string {
  return text
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
}

/** Folded words of a text, elisions dropped; apostrophes, hyphens and punctuation split words. */
export function tokenize(text: string): string[] {
  const words = fold(text.replace(ELISION, ' ')).split(NON_WORD)
  return words.filter((w) => w.length > 0)
}

/** French stop words, already folded (so "à" is "a"). Kept short: every entry here is unsearchable on its own. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'au', 'aux', 'avec', 'ce', 'ces', 'cet', 'cette', 'd', 'dans', 'de', 'des', 'du', 'elle', 'elles', 'en',
  'est', 'et', 'il', 'ils', 'je', 'jusqu', 'l', 'la', 'le', 'les', 'leur', 'leurs', 'lorsqu', 'ma', 'mais', 'me',
  'mes', 'mon', 'ne', 'ni', 'nos', 'notre', 'nous', 'on', 'ou', 'par', 'pas', 'pour', 'puisqu', 'qu', 'que',
  'quel', 'quelle', 'quelles', 'quels', 'qui', 'sa', 'se', 'ses', 'son', 'sont', 'sur', 'ta', 'te', 'tes', 'toi',
  'ton', 'tu', 'un', 'une', 'vos', 'votre', 'vous', 'y',
])

/**
 * The words a query must find: its words minus stop words, de-duplicated in order of appearance.
 * When every word is a stop word they all count, so "à la" still searches for something.
 */
export function significantWords(query: string): string[] {
  const words = [...new Set(tokenize(query))]
  const significant = words.filter((w) => !STOP_WORDS.has(w))
  return significant.length > 0 ? significant : words
}
