/**
 * Word folding shared by the index and the queries (CONTRACT.md "Search semantics"): both sides must
 * fold identically, or a word would be indexed under one form and searched under another.
 */

// The French elisions the contract names; a word is dropped as an elision only when an apostrophe
// follows it, because bare "c" or "d" are real words here (permis C, permis D).
const ELIDED = new Set(['l', 'd', 'qu', 'n', 's', 'j', 'c', 'm', 't'])
const APOSTROPHES = new Set([0x27, 0x2019, 0x02bc]) // ' ’ ʼ
const COMBINING_MARKS = /\p{M}+/gu
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u

/** Folds accents, case and the œ/æ ligatures: "Cœur À" → "coeur a". */
export function fold(text: string): string {
  return text
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
}

function isWordChar(code: number): boolean {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return true // a-z 0-9: most of folded French
  return code >= 0x80 && LETTER_OR_DIGIT.test(String.fromCodePoint(code))
}

/**
 * Folded words of a text, elisions dropped; apostrophes, hyphens and punctuation split words.
 * A single pass over the folded text: regular expressions for the split and the elisions cost
 * three times as much on a large corpus.
 */
export function tokenize(text: string): string[] {
  const s = fold(text)
  const words: string[] = []
  let start = -1
  for (let i = 0; i <= s.length; i++) {
    const code = i < s.length ? s.codePointAt(i)! : 0x20
    const width = code > 0xffff ? 2 : 1
    if (isWordChar(code)) {
      if (start < 0) start = i
      i += width - 1
      continue
    }
    if (start >= 0) {
      const word = s.slice(start, i)
      start = -1
      if (!(APOSTROPHES.has(code) && ELIDED.has(word))) words.push(foldPlural(word))
    }
  }
  return words
}

/**
 * Light French plural folding, the same on the index and the query side, so "panneau" finds
 * "panneaux" and "priorités" finds "priorité". Measured on the relevance table (docs/search.md):
 * 49 → 55 of 58 learner queries right. Words of four letters or fewer are left alone ("bus",
 * "plus", "mois"), and so are numbers and codes ("r412", "3pmsf").
 */
export function foldPlural(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word
  if (word.length >= 5 && word.endsWith('aux') && !word.endsWith('eaux')) return `${word.slice(0, -3)}al` // signaux → signal
  if (word.length >= 4 && word.endsWith('ux')) return word.slice(0, -1) // feux → feu, panneaux → panneau
  if (word.length >= 5 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1) // priorites → priorite
  return word
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
