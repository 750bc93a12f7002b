/**
 * Words a query does not require. Two sources, both compared folded (so "à" is "a", "où" is "ou"):
 *
 * - `STOP_WORDS`, the contract's French stop words (articles, prepositions, pronouns): unchanged.
 * - the fillers (data/search/fillers.json, every entry with its reason): words that carry no subject
 *   in a question — interrogatives, the auxiliary and modal verbs people put before the verb that
 *   matters, function words, their SMS spellings, greetings, English function words — and phrases
 *   whose words are ignored only together, in a row ("combien de temps", "que se passe-t-il",
 *   "avoir le droit de"), so each keeps its meaning elsewhere. Measured on the relevance table
 *   (docs/search.md): 27 of its first 40 questions found nothing while question words were required.
 *
 * Negation and quantity words ("aucun", "rien", "jamais", "plus", "sans", "après") are fillers too
 * (issue 46): the shape of a question, not its subject ("je n'ai plus aucun point").
 * What stays significant on purpose: "moins" ("moins cher"), "avant"/"arrière", numbers, and every
 * noun, even a vague one ("temps").
 * If every word of a query is ignorable, they all count (docs/contract.md "Search semantics"), so "comment" alone
 * still searches for "comment".
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { foldPlural, tokenize } from './tokenize.js'

const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'au',
  'aux',
  'avec',
  'ce',
  'ces',
  'cet',
  'cette',
  'd',
  'dans',
  'de',
  'des',
  'du',
  'elle',
  'elles',
  'en',
  'est',
  'et',
  'il',
  'ils',
  'je',
  'jusqu',
  'l',
  'la',
  'le',
  'les',
  'leur',
  'leurs',
  'lorsqu',
  'ma',
  'mais',
  'me',
  'mes',
  'mon',
  'ne',
  'ni',
  'nos',
  'notre',
  'nous',
  'on',
  'ou',
  'par',
  'pas',
  'pour',
  'puisqu',
  'qu',
  'que',
  'quel',
  'quelle',
  'quelles',
  'quels',
  'qui',
  'sa',
  'se',
  'ses',
  'son',
  'sont',
  'sur',
  'ta',
  'te',
  'tes',
  'toi',
  'ton',
  'tu',
  'un',
  'une',
  'vos',
  'votre',
  'vous',
  'y',
])

const reason = z.string().min(10)
export const FillerFileSchema = z.strictObject({
  version: z.int().positive(),
  about: z.string(),
  words: z.array(
    z.strictObject({
      kind: z.enum([
        'interrogative',
        'auxiliary',
        'function',
        'negation',
        'quantity',
        'politeness',
        'assistant',
        'sms',
        'english',
        'placeholder',
      ]),
      words: z.array(z.string().min(1)).min(1),
      reason,
      /** A listed word kept when it follows one of these ("permis C" is a licence, "c koi" an SMS "c'est"). */
      unless_after: z.record(z.string(), z.array(z.string().min(1)).min(1)).optional(),
    }),
  ),
  phrases: z.array(z.strictObject({ phrases: z.array(z.string().min(1)).min(1), reason })),
})
export type FillerFile = z.infer<typeof FillerFileSchema>

/** The fillers of a file, folded as queries are. */
export class Fillers {
  readonly version: number
  readonly #words = new Set<string>()
  /** Per ignored word, the words after which it is kept. */
  readonly #keptAfter = new Map<string, ReadonlySet<string>>()
  readonly #phrases: (readonly string[])[] = []

  constructor(file: FillerFile) {
    this.version = file.version
    for (const entry of file.words) {
      for (const word of entry.words) this.#words.add(oneWord(word))
      for (const [word, after] of Object.entries(entry.unless_after ?? {}))
        this.#keptAfter.set(oneWord(word), new Set(after.map(oneWord)))
    }
    for (const { phrases } of file.phrases) {
      for (const phrase of phrases) {
        const words = tokenize(phrase)
        if (words.length < 2)
          throw new Error(
            `fillers: the phrase "${phrase}" has fewer than two words; list a single word under "words"`,
          )
        this.#phrases.push(words)
      }
    }
  }

  /** Whether the folded word is a filler wherever it is (the contract's stop words included). */
  isIgnorable(word: string): boolean {
    return STOP_WORDS_FOLDED.has(word) || this.#words.has(word)
  }

  /** For each folded word of a query, whether it is ignored: a filler word, or covered by a filler phrase. */
  ignoredIn(words: readonly string[]): boolean[] {
    const ignored = words.map(
      (word, i) => this.isIgnorable(word) && !(this.#keptAfter.get(word)?.has(words[i - 1] ?? '') ?? false),
    )
    for (let at = 0; at < words.length; at++) {
      for (const phrase of this.#phrases) {
        if (phrase.every((w, i) => words[at + i] === w)) phrase.forEach((_, i) => (ignored[at + i] = true))
      }
    }
    return ignored
  }

  /** Folded filler words, for tests and docs. */
  get words(): ReadonlySet<string> {
    return this.#words
  }

  get phrases(): readonly (readonly string[])[] {
    return this.#phrases
  }
}

// Queries are folded with plurals folded ("toutes" is searched as "toute"): the lists are compared the same way.
const STOP_WORDS_FOLDED: ReadonlySet<string> = new Set([...STOP_WORDS].map(foldPlural))

/** Whether a folded word is one of the contract's stop words (not a filler). */
export const isContractStopWord = (word: string): boolean => STOP_WORDS_FOLDED.has(word)

/** A listed word must fold to exactly one word (no spaces, hyphens or elisions). */
function oneWord(text: string): string {
  const words = tokenize(text)
  if (words.length !== 1) throw new Error(`fillers: "${text}" is not one word`)
  return words[0]!
}

/** data/search/fillers.json, beside dist/ and src/ alike. */
const FILLERS_FILE = new URL('../../../data/search/fillers.json', import.meta.url)

/** Reads and checks the fillers file; a malformed file stops the service at start, never mid-request. */
function loadFillers(file: URL = FILLERS_FILE): Fillers {
  return new Fillers(FillerFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}

/** The bundled fillers, read once per process. */
export const BUNDLED_FILLERS = loadFillers()

/** Whether a folded word is left out of what a query requires wherever it is (unless the query has nothing else). */
export const isIgnorable = (word: string): boolean => BUNDLED_FILLERS.isIgnorable(word)

/** For each folded word of a query, whether it is ignored (a filler word, or part of a filler phrase). */
export const ignoredWords = (words: readonly string[]): boolean[] => BUNDLED_FILLERS.ignoredIn(words)
