/**
 * Word folding shared by the index and the queries (docs/contract.md "Search semantics"): both sides must
 * fold identically, or a word would be indexed under one form and searched under another.
 */

// The French elisions the contract names; a word is dropped as an elision only when an apostrophe
// follows it, because bare "c" or "d" are real words here (permis C, permis D).
const ELIDED = new Set(['l', 'd', 'qu', 'n', 's', 'j', 'c', 'm', 't'])
/** ' ’ ʼ */
export const isApostrophe = (code: number): boolean => code === 0x27 || code === 0x2019 || code === 0x02bc

/** Whether a folded word is an elision when an apostrophe follows it ("l'", "qu'"). */
export const isElision = (word: string): boolean => ELIDED.has(word)
const COMBINING_MARKS = /\p{M}+/gu
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u

/** The folding as the contract states it, on a whole text: œ/æ, NFKD, combining marks removed, lower case. */
export function foldByDefinition(text: string): string {
  return text
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
}

/** Each non-ASCII character folded alone, remembered: a text has few distinct ones. */
const FOLDED = new Map<number, string>()

/** A non-ASCII code point folded as `fold` folds it (alone: see below). */
export function foldCodePoint(point: number): string {
  let folded = FOLDED.get(point)
  if (folded === undefined) FOLDED.set(point, (folded = foldByDefinition(String.fromCodePoint(point))))
  return folded
}

/**
 * Folds accents, case and the œ/æ ligatures: "Cœur À" → "coeur a". The same as foldByDefinition,
 * character by character (each of its steps maps one character, or drops a mark, independently of
 * its neighbours), which lets ASCII runs be lower-cased as they are and each other character be
 * folded once per process instead of normalising every text: a third of the time of indexing a
 * record was here. Tested equal on every text of the sample (tokenize.test.ts). One difference by
 * construction: Greek capital sigma folds to σ everywhere, never to the word-final ς.
 */
export function fold(text: string): string {
  let out = ''
  let run = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) continue
    const point = text.codePointAt(i)!
    out += text.slice(run, i).toLowerCase() + foldCodePoint(point)
    if (point > 0xffff) i++
    run = i + 1
  }
  return run === 0 ? text.toLowerCase() : out + text.slice(run).toLowerCase()
}

/** Non-ASCII code points tested once each. */
const WORD_CHARS = new Map<number, boolean>()

/** Whether a code point is part of a word: a letter or a digit. */
export function isWordChar(code: number): boolean {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return true // a-z 0-9: most of folded French
  if (code < 0x80) return false
  let known = WORD_CHARS.get(code)
  if (known === undefined) WORD_CHARS.set(code, (known = LETTER_OR_DIGIT.test(String.fromCodePoint(code))))
  return known
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
    const unit = i < s.length ? s.charCodeAt(i) : 0x20
    // A code point is read only where a surrogate pair may start: folded French is nearly all ASCII.
    const code = unit >= 0xd800 && unit <= 0xdbff ? s.codePointAt(i)! : unit
    const width = code > 0xffff ? 2 : 1
    if (isWordChar(code)) {
      if (start < 0) start = i
      i += width - 1
      continue
    }
    if (start >= 0) {
      const word = s.slice(start, i)
      start = -1
      if (!(isApostrophe(code) && ELIDED.has(word))) words.push(foldPlural(word))
    }
  }
  return words
}

/**
 * Words ending like a plural that are not one, and whose folding would meet another word. Found by
 * reviewing every group of the sample's words that the search treats as one (docs/search-forms.md,
 * kept equal to the code by test/relevance/vocabulary.test.ts), so a new merge is seen before it ships.
 */
const NOT_PLURALS: ReadonlySet<string> = new Set([
  'peux', // pouvoir: would meet « peu » (little), a collision an earlier version made
  'veux', // vouloir: its x is no plural mark, like « peux »
  'deux', // the number, never a plural of « deu »
  'ceux', // the pronoun, never a plural of « ceu »
  'mieux', // the adverb, never a plural of « mieu »
  'sommes', // « nous sommes » (être) would meet « somme » (« la somme de deux distances »)
])

/**
 * Light French plural folding, the same on the index and the query side, so "panneau" finds
 * "panneaux" and "priorités" finds "priorité". Measured on the relevance table (docs/search.md):
 * 49 → 55 of 58 learner queries right. Words of four letters or fewer are left alone ("bus",
 * "plus", "mois"), and so are numbers and codes ("r412", "3pmsf"), except the plurals in -ux
 * ("feux", "jeux"). The verb forms and words that only look like plurals keep their ending, so
 * "peux" never meets "peu" nor "sommes" "somme" (collisions earlier versions of this rule made).
 */
export function foldPlural(word: string): string {
  if (!isLowerLetters(word) || NOT_PLURALS.has(word)) return word
  if (word.length >= 5 && word.endsWith('aux') && !word.endsWith('eaux')) return `${word.slice(0, -3)}al` // signaux → signal
  if (word.length >= 4 && word.endsWith('ux')) return word.slice(0, -1) // feux → feu, panneaux → panneau
  if (word.length >= 5 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1) // priorites → priorite
  return word
}

/** Whether `word` is only a-z (a loop: this runs for every word of every record). */
function isLowerLetters(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    if (c < 0x61 || c > 0x7a) return false
  }
  return word.length > 0
}

/** A word of a query, folded as the index folds it, with the text it was typed as (for the answer). */
export type QueryToken = { word: string; typed: string }

/**
 * The folded words of a query, each with what the user typed: "Stationner" stays "Stationner" in
 * the answer's interpretation while "stationner" is searched. Raw words are cut on the same
 * characters as `tokenize`, then folded by it, so both sides agree word for word.
 */
export function queryTokens(query: string): QueryToken[] {
  const tokens: QueryToken[] = []
  for (const raw of query.normalize('NFC').split(RAW_SEPARATORS)) {
    if (raw === '') continue
    for (const word of tokenize(raw)) tokens.push({ word, typed: raw.replace(/['’ʼ]+$/u, '') })
  }
  return tokens
}

// Cut after an apostrophe (so "l'autoroute" gives "l'" and "autoroute") and on every other
// character that is not a letter or a digit.
const RAW_SEPARATORS = /(?<=['’ʼ])|[^\p{L}\p{N}\p{M}'’ʼ]+/u
