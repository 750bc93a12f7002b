/**
 * How a query is read (docs/search.md, "How a query is read"): which of its words are required,
 * which are ignored, which were corrected, and what each required word also finds (its forms, its
 * aliases). The result is both the plan the index runs and the `interpretation` of the answer, so
 * what the answer says is what the search did.
 */
import type { AliasMatch, AliasPhrase, AliasTable } from './aliases.js'
import { closestWords, maxEdits, splitWord } from './correct.js'
import { BUNDLED_ENGLISH, type EnglishVocabulary } from './english.js'
import type { Lexicon } from './lexicon.js'
import type { Alternative, TermGroup, WeightedTerm } from './match.js'
import {
  convertedMeasures,
  isMeasure,
  numberSpellings,
  splitJoinedWords,
  UNIT_NAMES,
  withMeasures,
  type MeasureToken,
} from './measures.js'
import { BUNDLED_NEGATIONS, type NegationTable } from './negations.js'
import { ignoredWords } from './stop-words.js'
import { queryTokens, tokenize, type QueryToken } from './tokenize.js'

/** The `interpretation` object of the search answer (docs/api.md). */
export type Interpretation = {
  words: string[]
  ignored: string[]
  corrected: { from: string; to: string }[]
  expanded: { word: string; with: string[] }[]
  relaxed: { without: string; q: string; total: number }[]
  /** Best match only: the required words the best-matched records hold. */
  matched?: string[]
  /** Best match only: the required words no best-matched record holds. */
  left_out?: string[]
  /** Best match only: each result of the page that lacks some required words, with those words. */
  missing?: { id: string; words: string[] }[]
}

/** A required word: as the answer shows it, and the group of indexed words the index must find. */
export type PlannedWord = {
  shown: string
  group: TermGroup
}

export type QueryPlan = { words: PlannedWord[]; interpretation: Interpretation }

export type InterpretContext = {
  lexicon: Lexicon
  aliases: AliasTable
  /** An indexed word as the records write it (accents kept), for the answer. */
  display: (term: number) => string
  /** The English-query mode's vocabulary (data/search/english.json by default). */
  english?: EnglishVocabulary
  /** Negation and quantity phrases (data/search/negations.json by default). */
  negations?: NegationTable
}

/**
 * A match on another form of the word, or on an alias, counts a little less than the word as typed,
 * so "stationner" ranks a record that says "stationner" above one that says "stationnement" when
 * all else is equal. Measured on the relevance table (docs/search.md).
 */
const FORM_WEIGHT = 0.8
const ALIAS_WEIGHT = 0.8

/** What an English glossary word as typed weighs when the records hold it as a French word (« fine »). */
const TYPED_ENGLISH_WEIGHT = 0.5

/**
 * What the subject of a negation phrase weighs alone (« permis » of « jamais eu le permis »): a
 * record holding it says nothing of the negation, so the phrase's reading (« conduire sans
 * permis ») ranks first, while match=all still finds what the subject alone found.
 */
const NEGATED_SUBJECT_WEIGHT = 0.5

/** Corrections tried per query at most: each scans part of the vocabulary. */
const MAX_CORRECTIONS = 8

export function interpretQuery(typed: string, context: InterpretContext): QueryPlan {
  const q = splitJoinedWords(typed)
  const tokens = withMeasures(q, queryTokens(q))
  const vocabulary = context.english ?? BUNDLED_ENGLISH
  const typedWords = tokens.map((t) => t.word)
  const english = vocabulary.isEnglish(typedWords, (w) => context.lexicon.termId(w) !== undefined)
  // An English query keeps the function words of a whole glossary phrase (« lose all your points »),
  // a French query the negation and quantity words of a phrase that reads them (« plus de points »,
  // « aucun panneau »); alone they stay ignored.
  const ignorable = english
    ? vocabulary.keep(
        typedWords,
        typedWords.map((w) => vocabulary.isIgnorableInEnglish(w)),
      )
    : negationsOf(context).keep(typedWords, ignoredWords(typedWords))
  const significant = distinct(tokens.filter((_, i) => !ignorable[i]))
  const interpretation: Interpretation = { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
  if (significant.length === 0) {
    // Only stop or question words: they all count, as whole words (docs/contract.md "Search semantics").
    const words = distinct(tokens).map((t) => ({
      shown: t.typed,
      group: exactGroup(t.word, context.lexicon),
    }))
    interpretation.words = words.map((w) => w.shown)
    return { words, interpretation }
  }
  interpretation.ignored = [...new Set(tokens.filter((_, i) => ignorable[i]).map((t) => t.typed))]
  // An English query is never corrected: its words are English, not misspelt French ("lose" is not "posé").
  const corrected = english
    ? significant
    : correctWords(significant, tokens, context, interpretation.corrected)
  const folded = corrected.map((t) => t.word)
  const words: PlannedWord[] = []
  for (let at = 0; at < corrected.length;) {
    const token = corrected[at]!
    if (isMeasure(token)) {
      words.push({ shown: token.typed, group: measureGroup(token, context.lexicon) })
      interpretation.words.push(token.typed)
      at++
      continue
    }
    const translated = english ? translation(folded, at, vocabulary, context) : undefined
    if (translated !== undefined) {
      const shown = corrected
        .slice(at, at + translated.length)
        .map((t) => t.typed)
        .join(' ')
      words.push({ shown, group: readFrom(translated.group, translated.length) })
      interpretation.words.push(shown)
      interpretation.expanded.push({ word: shown, with: translated.also })
      at += translated.length
      continue
    }
    const negated = negationsOf(context).match(folded, at)
    if (negated !== undefined) {
      const shown = corrected
        .slice(at, at + negated.length)
        .map((t) => t.typed)
        .join(' ')
      const planned = readingGroup(folded.slice(at, at + negated.length), negated.also, context)
      words.push({ shown, group: readFrom(planned.group, negated.length) })
      interpretation.words.push(shown)
      interpretation.expanded.push({ word: shown, with: planned.also })
      at += negated.length
      continue
    }
    const alias = context.aliases.match(folded, at)
    const span = alias?.length ?? 1
    const shown = corrected
      .slice(at, at + span)
      .map((t) => t.typed)
      .join(' ')
    const planned = phraseGroup(folded.slice(at, at + span), alias?.also ?? [], context)
    words.push({ shown, group: readFrom(planned.group, span) })
    interpretation.words.push(shown)
    if (planned.also.length > 0) interpretation.expanded.push({ word: shown, with: planned.also })
    at += span
  }
  return { words, interpretation }
}

/**
 * A group read from `words` words of the query: a phrase (« panneau rond bleu », « voiture sans
 * permis ») stands for all the words typed for it, and best match weighs it so (match-plan.ts,
 * PHRASE_SHARE); a group of one word is left as it is.
 */
const readFrom = (group: TermGroup, words: number): TermGroup =>
  words > 1 ? Object.assign([...group], { words }) : group

/**
 * The glossary phrase of an English query at `at`, searched as the records' French terms only, in
 * front of the English words: « fine » is « amende » first, and the French adjective only at half
 * weight (so match=all still finds what the word as typed found). Undefined when no
 * phrase starts there or none of its French terms is indexed.
 */
function translation(
  folded: readonly string[],
  at: number,
  vocabulary: EnglishVocabulary,
  context: InterpretContext,
): { length: number; group: TermGroup; also: string[] } | undefined {
  const match = vocabulary.match(folded, at)
  if (match === undefined) return undefined
  const group: Alternative[] = []
  const also: string[] = []
  // The English words as typed still find what they found (match=all is widened, never narrowed:
  // docs/contract.md "Search semantics"), at a weight that ranks the French terms first.
  const own = alternative(folded.slice(at, at + match.length), TYPED_ENGLISH_WEIGHT, context.lexicon)
  for (const phrase of match.also) {
    const option = alternative(phrase.words, 1, context.lexicon)
    if (option === undefined) continue
    group.push(option)
    also.push(phrase.text)
  }
  if (group.length === 0) return undefined
  if (own !== undefined) group.push(own)
  return { length: match.length, group, also }
}

/**
 * The words with each one that finds nothing — not as itself, nor by a form, nor by an alias —
 * replaced by its correction (one word, or two when it was two words run together), if any.
 * Corrections are listed in `log`; they come before aliases, so "rond poin" reads "rond point".
 * A word typed as a name or an acronym ("Lyon", "Clio", "BSR" within a sentence) is not corrected:
 * it is a name the records do not hold, not a misspelling of a word they do.
 */
function correctWords(
  tokens: readonly QueryToken[],
  query: readonly QueryToken[],
  context: InterpretContext,
  log: Interpretation['corrected'],
): QueryToken[] {
  // A word of a phrase with aliases ("cruise control", "tôle froissée") is read with its phrase, not
  // corrected alone ("cruise" is not "croise").
  const inPhrase = phraseWords(
    tokens.map((t) => t.word),
    context,
  )
  // A measure is never corrected: its number is what the person means, found or not.
  const finds = tokens.map((t, i) => isMeasure(t) || inPhrase[i]! || findsSomething(t.word, context))
  // The forms of the words that find something: a correction that then matches with them is preferred.
  const others = tokens
    .flatMap((t, i) => (finds[i] && !isMeasure(t) ? [context.lexicon.formsOf(t.word)] : []))
    .filter((forms) => forms.length > 0)
  const out: QueryToken[] = []
  let tries = 0
  tokens.forEach((token, i) => {
    if (finds[i] || tries >= MAX_CORRECTIONS || isNameOrAcronym(token, query)) {
      out.push(token)
      return
    }
    tries++
    const fix = correction(token.word, context, others)
    if (fix === undefined) {
      out.push(token)
      return
    }
    const shown = fix.map((w) => context.display(context.lexicon.termId(w)!))
    log.push({ from: token.typed, to: shown.join(' ') })
    for (const [k, word] of fix.entries()) out.push({ word, typed: shown[k]! })
  })
  return out
}

/**
 * Whether a word was typed as a name or an acronym: capitalised after the first word of the query
 * ("à Lyon", "ma Clio"), or in capitals ("BSR") while the query has lower-case letters elsewhere.
 */
function isNameOrAcronym(token: QueryToken, query: readonly QueryToken[]): boolean {
  const typed = token.typed
  if (!/^\p{Lu}/u.test(typed)) return false
  const capitals = typed.length > 1 && typed === typed.toLocaleUpperCase('fr')
  if (capitals) return query.some((t) => t.typed !== t.typed.toLocaleUpperCase('fr'))
  return query[0] !== token && query.findIndex((t) => t.word === token.word) > 0
}

/** For each word, whether it belongs to a phrase of several words that has aliases some record holds. */
function phraseWords(words: readonly string[], context: InterpretContext): boolean[] {
  const covered = words.map(() => false)
  for (let at = 0; at < words.length; at++) {
    const alias = phraseAt(words, at, context)
    if (alias === undefined || alias.length < 2 || !aliasFinds(alias, context)) continue
    for (let i = at; i < at + alias.length; i++) covered[i] = true
  }
  return covered
}

const negationsOf = (context: InterpretContext): NegationTable => context.negations ?? BUNDLED_NEGATIONS

/** The phrase with alternatives at `words[at]`: a negation phrase first (it holds the aliases' words and more), else an alias. */
function phraseAt(words: readonly string[], at: number, context: InterpretContext): AliasMatch | undefined {
  return negationsOf(context).match(words, at) ?? context.aliases.match(words, at)
}

function findsSomething(word: string, context: InterpretContext): boolean {
  if (context.lexicon.formsOf(word).length > 0) return true
  const alias = context.aliases.match([word], 0)
  return alias !== undefined && aliasFinds(alias, context)
}

/** Whether some alias of a phrase has every word indexed (it can find something). */
function aliasFinds(alias: AliasMatch, context: InterpretContext): boolean {
  return alias.also.some((p) => alternative(p.words, 1, context.lexicon) !== undefined)
}

/** The query's words, each once (the first time it appears). */
function distinct(tokens: QueryToken[]): QueryToken[] {
  const seen = new Set<string>()
  return tokens.filter((t) => !seen.has(t.word) && seen.add(t.word))
}

/**
 * A measure's group: its number (as typed, in thousands groups or in words: numberSpellings) with its
 * unit as typed (a record writing "25 km/h") or as a word ("3,5 tonnes" for "3,5 t"), or its number
 * alone (a record writing "135 €", whose sign is no word), which counts a little less.
 */
function measureGroup(token: MeasureToken, lexicon: Lexicon): TermGroup {
  const { number, unit } = token.measure
  const unitsOf = (u: readonly string[]) =>
    u.length === 0 ? [] : [u, ...(u.length === 1 ? unitNames(u[0]!) : [])]
  const units = unitsOf(unit)
  const options: (Alternative | undefined)[] = []
  for (const spelling of numberSpellings(number)) {
    for (const u of units) options.push(alternative([...spelling, ...u], 1, lexicon))
    options.push(alternative(spelling, units.length === 0 ? 1 : FORM_WEIGHT, lexicon))
  }
  // One is « un », « une » in the records (« permis à un euro par jour », « une heure »), function
  // words no search reads: the unit alone stands for it, a little less than the number typed.
  if (number.length === 1 && Number(number[0]) === 1)
    for (const u of units) options.push(alternative(u, FORM_WEIGHT, lexicon))
  // The same mass in the other unit (« 3,5 t » is « 3 500 kg »): with its unit only, since its
  // number alone is not what was typed.
  for (const other of convertedMeasures(number, unit))
    for (const spelling of numberSpellings(other.number))
      for (const u of unitsOf(other.unit)) options.push(alternative([...spelling, ...u], 1, lexicon))
  return options.filter((a) => a !== undefined)
}

const unitNames = (symbol: string): string[][] => (UNIT_NAMES.get(symbol) ?? []).map((name) => tokenize(name))

function exactGroup(word: string, lexicon: Lexicon): TermGroup {
  const id = lexicon.termId(word)
  return id === undefined ? [] : [{ slots: [[{ term: id, weight: 1 }]], weight: 1 }]
}

/**
 * The group of a phrase of the query (usually one word): the phrase with its words' forms, and
 * each alias phrase whose words are all indexed. `also` is what it finds besides what was typed.
 */
function phraseGroup(
  words: readonly string[],
  aliases: readonly AliasPhrase[],
  context: InterpretContext,
): { group: TermGroup; also: string[] } {
  const also: string[] = []
  const group: Alternative[] = []
  const own = alternative(words, 1, context.lexicon)
  if (own !== undefined) {
    group.push(own)
    const typed = new Set(words.map((w) => context.lexicon.termId(w)))
    for (const slot of own.slots)
      for (const { term } of slot) if (!typed.has(term)) also.push(context.display(term))
  }
  phraseAlternatives(aliases, ALIAS_WEIGHT, context, group, also)
  return { group, also: [...new Set(also)] }
}

/**
 * A negation phrase's group: its readings (« solde de points nul ») at full weight, then its words
 * without their structure words (« point ») at NEGATED_SUBJECT_WEIGHT, so the query finds at least
 * what it found when the structure words were fillers.
 */
function readingGroup(
  words: readonly string[],
  readings: readonly AliasPhrase[],
  context: InterpretContext,
): { group: TermGroup; also: string[] } {
  const group: Alternative[] = []
  const also: string[] = []
  phraseAlternatives(readings, 1, context, group, also)
  const subject = words.filter((w) => !negationsOf(context).isStructureWord(w))
  const own = subject.length > 0 ? alternative(subject, NEGATED_SUBJECT_WEIGHT, context.lexicon) : undefined
  if (own !== undefined) group.push(own)
  return { group, also }
}

/**
 * Adds to `group` an alternative at `weight` for each phrase whose words are all indexed, and its
 * text to `also` (what the group finds besides what was typed): aliases and negation readings alike.
 */
function phraseAlternatives(
  phrases: readonly AliasPhrase[],
  weight: number,
  context: InterpretContext,
  group: Alternative[],
  also: string[],
): void {
  for (const phrase of phrases) {
    const option = alternative(phrase.words, weight, context.lexicon)
    if (option === undefined) continue
    group.push(option)
    also.push(phrase.text)
  }
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

/** Candidates of a tier whose co-occurrence with the query's other words is checked, at most. */
const CANDIDATES_CHECKED = 6

/**
 * An indexed word (or two run together) close to a word that finds nothing: never a stop word, an
 * acronym (a word the records write in capitals: "etc" is not "ETG"), nor a piece shorter than
 * `MIN_PIECE`. Tiers in order: one edit away, two words run together, two edits away (words of
 * eight letters or more). Within a tier, when the query has other words that find something, the
 * candidate found together with the most of them wins, and one found with none is no correction:
 * "directeur" is not "détecteur" when the other words are about a school.
 */
function correction(
  word: string,
  context: InterpretContext,
  others: readonly (readonly number[])[],
): string[] | undefined {
  const { lexicon } = context
  const edits = maxEdits(word.length)
  if (edits === 0 || !/^[a-z]+$/.test(word)) return undefined
  const usable = (w: string) => !isAcronym(w, context)
  // Tiers made only when the ones before found nothing: two edits scan many more words.
  const near = closestWords(word, lexicon, 1).filter(usable)
  const tiers: (() => string[][])[] = [
    () => near.map((w) => [w]),
    () => {
      const parts = splitWord(word, lexicon)
      return parts !== undefined &&
        parts.every(usable) &&
        lexicon.together(lexicon.formsOf(parts[0]), lexicon.formsOf(parts[1]))
        ? [parts]
        : []
    },
    () =>
      (edits > 1 ? closestWords(word, lexicon, edits).filter((w) => usable(w) && !near.includes(w)) : []).map(
        (w) => [w],
      ),
  ]
  for (const tier of tiers) {
    const fix = mostTogether(tier().slice(0, CANDIDATES_CHECKED), lexicon, others)
    if (fix !== undefined) return fix
  }
  return undefined
}

/** The candidate found together with the most of `others` (the first on a tie); any first one when there are no others. */
function mostTogether(
  candidates: readonly string[][],
  lexicon: Lexicon,
  others: readonly (readonly number[])[],
): string[] | undefined {
  if (others.length === 0) return candidates[0]
  let best: { fix: string[]; count: number } | undefined
  for (const fix of candidates) {
    const forms = fix.flatMap((w) => lexicon.formsOf(w))
    const count = others.filter((other) => lexicon.together(forms, other)).length
    if (count > 0 && (best === undefined || count > best.count)) best = { fix, count }
  }
  return best?.fix
}

/** Whether the records write an indexed word in capitals (an acronym: "ETG", "AAC", "CPF"). */
function isAcronym(word: string, context: InterpretContext): boolean {
  const term = context.lexicon.termId(word)
  if (term === undefined) return false
  const shown = context.display(term)
  return shown.length > 1 && shown === shown.toLocaleUpperCase('fr') && /\p{Lu}/u.test(shown)
}
