/**
 * The English-query mode (data/search/english.json, docs/search.md "English queries"). Foreign
 * learners and assistants send questions in English over French records. Read as French, such a
 * query required its function words ("has", "an", "all"), "corrected" English words into unrelated
 * French ones ("lose" → "posé", "rules" → "rôle") and read homographs in French ("fine" as the
 * adjective). A query detected as English instead drops its English function words, is never
 * corrected, and searches each glossary phrase as the French terms of the records.
 *
 * Detection is a count, not a language model: English marker words (function words a French query
 * does not hold) must outnumber the French stop words, with at least two signs of English (markers
 * or glossary phrases); or, with no French stop word at all, two glossary phrases no French record
 * holds ("penalties speeding"), or two glossary phrases and nothing else, one of them foreign
 * ("speeding fine"). One English word in a French sentence ("permis à 17 ans in Lyon") leaves it
 * French.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { AliasTable, type AliasMatch } from './aliases.js'
import { isContractStopWord, isIgnorable } from './stop-words.js'
import { tokenize } from './tokenize.js'

const reason = z.string().min(10)
const words = z.array(z.string().min(1)).min(1)
const EnglishFileSchema = z.strictObject({
  version: z.int().positive(),
  about: z.string(),
  markers: z.strictObject({ words, reason }),
  function_words: z.array(z.strictObject({ words, reason })),
  glossary: z.array(z.strictObject({ en: words, whole: words.optional(), fr: words, reason })),
})
type EnglishFile = z.infer<typeof EnglishFileSchema>

/** French stop words that are English words too ("a", "on", "as"): no sign of French in an English query. */
const SHARED_WITH_ENGLISH: ReadonlySet<string> = new Set(['a', 'on', 'en', 'as', 'ma', 'me', 'ne', 'ton'])

export class EnglishVocabulary {
  readonly version: number
  readonly #markers = new Set<string>()
  readonly #functionWords = new Set<string>()
  /** English phrases → the records' French terms, matched as aliases are (longest phrase first). */
  readonly glossary: AliasTable
  /** The words of the glossary's English phrases: kept in an English query even where French drops them (« car »). */
  readonly #contentWords = new Set<string>()
  /**
   * Phrases whose function words carry their meaning (« lose all your points » is none left, not
   * « lose points »), matched whole: every word, in a row, function words included.
   */
  readonly #whole: AliasTable

  constructor(file: EnglishFile) {
    this.version = file.version
    for (const word of file.markers.words) for (const w of tokenize(word)) this.#markers.add(w)
    for (const entry of file.function_words)
      for (const word of entry.words) for (const w of tokenize(word)) this.#functionWords.add(w)
    for (const entry of file.glossary)
      for (const p of entry.en) for (const w of tokenize(p)) this.#contentWords.add(w)
    for (const w of this.#functionWords) this.#contentWords.delete(w)
    for (const w of this.#markers) this.#contentWords.delete(w)
    this.glossary = new AliasTable(
      {
        version: file.version,
        about: file.about,
        aliases: file.glossary.flatMap((g) => {
          // The English side is matched on the query's words once its function words are dropped.
          const when = g.en.map((p) => this.#content(p)).filter((p) => p.length > 0)
          return when.length === 0 ? [] : [{ kind: 'english' as const, when, also: g.fr, reason: g.reason }]
        }),
      },
      // English side: its content words; French side: the records' significant words.
      (w) => this.#contentWords.has(w) || !isIgnorable(w),
    )
    const wholeWords = new Set(file.glossary.flatMap((g) => (g.whole ?? []).flatMap((p) => tokenize(p))))
    this.#whole = new AliasTable(
      {
        version: file.version,
        about: file.about,
        aliases: file.glossary.flatMap((g) =>
          g.whole === undefined
            ? []
            : [{ kind: 'english' as const, when: g.whole, also: g.fr, reason: g.reason }],
        ),
      },
      // English side: every word of the phrase; French side, as above.
      (w) => wholeWords.has(w) || this.#contentWords.has(w) || !isIgnorable(w),
    )
  }

  /**
   * `ignorable` (per folded word of an English query) with the words of every whole phrase the
   * query holds no longer ignored, so that the phrase is read as one (see #whole).
   */
  keep(words: readonly string[], ignorable: readonly boolean[]): boolean[] {
    const out = [...ignorable]
    for (const { at, length } of this.#whole.spans(words)) out.fill(false, at, at + length)
    return out
  }

  /** The longest glossary phrase starting at `words[at]` (an English query's kept words), whole phrases included. */
  match(words: readonly string[], at: number): AliasMatch | undefined {
    const whole = this.#whole.match(words, at)
    const phrase = this.glossary.match(words, at)
    return whole !== undefined && (phrase === undefined || whole.length >= phrase.length) ? whole : phrase
  }

  /**
   * Whether a query (its folded words) reads as English. `indexed` tells whether the records hold a
   * word: a glossary phrase counts as a sign of English alone only if no record holds it in French.
   */
  isEnglish(folded: readonly string[], indexed: (word: string) => boolean): boolean {
    const distinct = [...new Set(folded)]
    const markers = distinct.filter((w) => this.#markers.has(w)).length
    const french = distinct.filter(
      (w) => isContractStopWord(w) && !SHARED_WITH_ENGLISH.has(w) && !this.#markers.has(w),
    ).length
    const content = folded.filter((w) => !this.isFunctionWord(w))
    const found = this.glossary.spans(content)
    const phrases = found.length
    const covered = found.reduce((sum, { length }) => sum + length, 0)
    const foreignPhrases = found.filter(({ at, length }) =>
      content.slice(at, at + length).some((w) => !indexed(w)),
    ).length
    if (markers >= 1) return markers + phrases >= 2 && markers > french
    // Without markers: two phrases no French record holds, or two glossary phrases and nothing else,
    // one of them foreign (« speeding fine », « red light fine »: « fine » is then the penalty, not
    // the adjective). One phrase alone (« speed limit ») stays French, found by the aliases.
    const allGlossary = phrases >= 2 && covered === content.length
    return french === 0 && (foreignPhrases >= 2 || (foreignPhrases >= 1 && allGlossary))
  }

  /** A phrase's folded words without English function words, as one string ("all my points" → "point"). */
  #content(phrase: string): string {
    return tokenize(phrase)
      .filter((w) => !this.isFunctionWord(w))
      .join(' ')
  }

  /** Whether a folded word is an English function word, ignored in an English query. */
  isFunctionWord(word: string): boolean {
    return this.#markers.has(word) || this.#functionWords.has(word)
  }

  /** Whether a folded word is ignored in an English query: an English function word, or a French filler that is no English word of the glossary. */
  isIgnorableInEnglish(word: string): boolean {
    return this.isFunctionWord(word) || (isIgnorable(word) && !this.#contentWords.has(word))
  }
}

/** data/search/english.json, beside dist/ and src/ alike. */
const ENGLISH_FILE = new URL('../../../data/search/english.json', import.meta.url)

/** Reads and checks the English file; a malformed file stops the service at start, never mid-request. */
export function loadEnglish(file: URL = ENGLISH_FILE): EnglishVocabulary {
  return new EnglishVocabulary(EnglishFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}

/** The bundled English vocabulary, read once per process. */
export const BUNDLED_ENGLISH = loadEnglish()
