/**
 * How a query is read (docs/search.md, "How a query is read"): which of its words are required,
 * which are ignored, which were corrected, and what each required word also finds (its forms, its
 * aliases). The result is both the plan the index runs and the `interpretation` of the answer, so
 * what the answer says is what the search did.
 */
import type { AliasPhrase, AliasTable } from './aliases.js'
import { closestWord, maxEdits, splitWord } from './correct.js'
import type { Lexicon } from './lexicon.js'
import type { Alternative, TermGroup, WeightedTerm } from './match.js'
import { inQuestionPhrase, isIgnorable } from './stop-words.js'
import { queryTokens, type QueryToken } from './tokenize.js'

/** The `interpretation` object of the search answer (docs/api.md). */
export type Interpretation = {
  words: string[]
  ignored: string[]
  corrected: { from: string; to: string }[]
  expanded: { word: string; with: string[] }[]
  relaxed: { without: string; q: string; total: number }[]
}

/** A required word: as the answer shows it, and the group of indexed words the index must find. */
export type PlannedWord = { shown: string; group: TermGroup }

export type QueryPlan = { words: PlannedWord[]; interpretation: Interpretation }

export type InterpretContext = {
  lexicon: Lexicon
  aliases: AliasTable
  /** An indexed word as the records write it (accents kept), for the answer. */
  display: (term: number) => string
}

/**
 * A match on another form of the word, or on an alias, counts a little less than the word as typed,
 * so "stationner" ranks a record that says "stationner" above one that says "stationnement" when
 * all else is equal. Measured on the relevance table (docs/search.md).
 */
export const FORM_WEIGHT = 0.8
export const ALIAS_WEIGHT = 0.8

/** Corrections tried per query at most: each scans part of the vocabulary. */
export const MAX_CORRECTIONS = 8

export function interpretQuery(q: string, context: InterpretContext): QueryPlan {
  const tokens = queryTokens(q)
  const phrase = inQuestionPhrase(tokens.map((t) => t.word))
  const ignorable = tokens.map((t, i) => phrase[i]! || isIgnorable(t.word))
  const significant = distinct(tokens.filter((_, i) => !ignorable[i]))
  const interpretation: Interpretation = { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
  if (significant.length === 0) {
    // Only stop or question words: they all count, as whole words (CONTRACT.md).
    const words = distinct(tokens).map((t) => ({ shown: t.typed, group: exactGroup(t.word, context.lexicon) }))
    interpretation.words = words.map((w) => w.shown)
    return { words, interpretation }
  }
  interpretation.ignored = [...new Set(tokens.filter((_, i) => ignorable[i]).map((t) => t.typed))]
  const corrected = correctWords(significant, context, interpretation.corrected)
  const folded = corrected.map((t) => t.word)
  const words: PlannedWord[] = []
  for (let at = 0; at < corrected.length; ) {
    const alias = context.aliases.match(folded, at)
    const span = alias?.length ?? 1
    const shown = corrected.slice(at, at + span).map((t) => t.typed).join(' ')
    const planned = phraseGroup(folded.slice(at, at + span), alias?.also ?? [], context)
    words.push({ shown, group: planned.group })
    interpretation.words.push(shown)
    if (planned.also.length > 0) interpretation.expanded.push({ word: shown, with: planned.also })
    at += span
  }
  return { words, interpretation }
}

/**
 * The words with each one that finds nothing — not as itself, nor by a form, nor by an alias —
 * replaced by its correction (one word, or two when it was two words run together), if any.
 * Corrections are listed in `log`; they come before aliases, so "rond poin" reads "rond point".
 */
function correctWords(tokens: readonly QueryToken[], context: InterpretContext, log: Interpretation['corrected']): QueryToken[] {
  const out: QueryToken[] = []
  let tries = 0
  for (const token of tokens) {
    if (findsSomething(token.word, context) || tries >= MAX_CORRECTIONS) {
      out.push(token)
      continue
    }
    tries++
    const fix = correction(token.word, context.lexicon)
    if (fix === undefined) {
      out.push(token)
      continue
    }
    const shown = fix.map((w) => context.display(context.lexicon.termId(w)!))
    log.push({ from: token.typed, to: shown.join(' ') })
    fix.forEach((word, i) => out.push({ word, typed: shown[i]! }))
  }
  return out
}

function findsSomething(word: string, context: InterpretContext): boolean {
  if (context.lexicon.formsOf(word).length > 0) return true
  const alias = context.aliases.match([word], 0)
  return alias !== undefined && alias.also.some((p) => alternative(p.words, 1, context.lexicon) !== undefined)
}

/** The query's words, each once (the first time it appears). */
function distinct(tokens: QueryToken[]): QueryToken[] {
  const seen = new Set<string>()
  return tokens.filter((t) => !seen.has(t.word) && seen.add(t.word))
}

function exactGroup(word: string, lexicon: Lexicon): TermGroup {
  const id = lexicon.termId(word)
  return id === undefined ? [] : [{ slots: [[{ term: id, weight: 1 }]], weight: 1 }]
}

/**
 * The group of a phrase of the query (usually one word): the phrase with its words' forms, and
 * each alias phrase whose words are all indexed. `also` is what it finds besides what was typed.
 */
function phraseGroup(words: readonly string[], aliases: readonly AliasPhrase[], context: InterpretContext): { group: TermGroup; also: string[] } {
  const also: string[] = []
  const group: Alternative[] = []
  const own = alternative(words, 1, context.lexicon)
  if (own !== undefined) {
    group.push(own)
    const typed = new Set(words.map((w) => context.lexicon.termId(w)))
    for (const slot of own.slots) for (const { term } of slot) if (!typed.has(term)) also.push(context.display(term))
  }
  for (const phrase of aliases) {
    const option = alternative(phrase.words, ALIAS_WEIGHT, context.lexicon)
    if (option === undefined) continue
    group.push(option)
    also.push(phrase.text)
  }
  return { group, also: [...new Set(also)] }
}

/** Words that must all be found, each as itself (weight 1) or another of its forms; undefined if one is not indexed. */
function alternative(words: readonly string[], weight: number, lexicon: Lexicon): Alternative | undefined {
  const slots: WeightedTerm[][] = []
  for (const word of words) {
    const self = lexicon.termId(word)
    const slot = lexicon.formsOf(word).map((term) => ({ term, weight: term === self ? 1 : FORM_WEIGHT }))
    if (slot.length === 0) return undefined
    slots.push(slot)
  }
  return { slots, weight }
}

/** An indexed word (or two run together) close to a word that finds nothing; never a stop word. */
function correction(word: string, lexicon: Lexicon): string[] | undefined {
  const edits = maxEdits(word.length)
  if (edits === 0 || !/^[a-z]+$/.test(word)) return undefined
  const near = closestWord(word, lexicon, 1)
  if (near !== undefined) return [near]
  const parts = splitWord(word, lexicon)
  if (parts !== undefined) return parts
  const far = edits > 1 ? closestWord(word, lexicon, edits) : undefined
  return far === undefined ? undefined : [far]
}
