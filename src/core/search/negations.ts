/**
 * Negation and quantity as query structure (data/search/negations.json, docs/search.md "Negation
 * and quantity"). Alone, `plus`, `aucun`, `sans`, `jamais` are fillers: required, they made an
 * answer that holds only the subject lose to any record that happens to say `plus`. Beside some
 * nouns they are the question itself: `plus de points` is the zero-points rule, `aucun panneau` the
 * priority to the right, `jamais eu le permis` driving with no licence. A phrase of this table keeps
 * its structure words in the query and is read ahead of the aliases, with its own alternatives.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { AliasTable, type AliasMatch } from './aliases.js'
import { isIgnorable } from './stop-words.js'
import { tokenize } from './tokenize.js'

const reason = z.string().min(10)
const phrases = z.array(z.string().min(1)).min(1)
const NegationFileSchema = z.strictObject({
  version: z.int().positive(),
  about: z.string(),
  words: z.strictObject({ words: phrases, reason }),
  phrases: z.array(z.strictObject({ when: phrases, also: phrases, reason })),
})
type NegationFile = z.infer<typeof NegationFileSchema>

export class NegationTable {
  readonly version: number
  readonly #structure = new Set<string>()
  readonly #phrases: AliasTable

  constructor(file: NegationFile) {
    this.version = file.version
    for (const word of file.words.words) for (const w of tokenize(word)) this.#structure.add(w)
    for (const entry of file.phrases)
      for (const p of entry.when)
        if (!tokenize(p).some((w) => this.#structure.has(w)))
          throw new Error(`negations: "${p}" holds no structure word; it belongs in aliases.json`)
    this.#phrases = new AliasTable(
      {
        version: file.version,
        about: file.about,
        aliases: file.phrases.map((e) => ({
          kind: 'everyday' as const,
          when: e.when,
          also: e.also,
          reason: e.reason,
        })),
      },
      (w) => this.#read(w),
    )
  }

  /** Whether a folded word is one of the table's structure words (« plus », « aucun », « sans »…). */
  isStructureWord(word: string): boolean {
    return this.#structure.has(word)
  }

  /** A word a phrase is matched on: a significant word, or a structure word. */
  #read(word: string): boolean {
    return this.#structure.has(word) || !isIgnorable(word)
  }

  /**
   * `ignored` (per folded word of the query) with the structure words of every phrase of the table
   * that the query holds no longer ignored; every other structure word stays a filler.
   */
  keep(words: readonly string[], ignored: readonly boolean[]): boolean[] {
    const out = [...ignored]
    const read = words.flatMap((w, i) => (!ignored[i] || this.#structure.has(w) ? [i] : []))
    const seen = read.map((i) => words[i]!)
    for (const { at, length } of this.#phrases.spans(seen))
      for (let k = at; k < at + length; k++) out[read[k]!] = false
    return out
  }

  /** The phrase of the table that starts at `words[at]` (the query's kept words), if any. */
  match(words: readonly string[], at: number): AliasMatch | undefined {
    return this.#phrases.match(words, at)
  }
}

/** data/search/negations.json, beside dist/ and src/ alike. */
const NEGATIONS_FILE = new URL('../../../data/search/negations.json', import.meta.url)

/** Reads and checks the negations file; a malformed file stops the service at start, never mid-request. */
function loadNegations(file: URL = NEGATIONS_FILE): NegationTable {
  return new NegationTable(NegationFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}

/** The bundled negation phrases, read once per process. */
export const BUNDLED_NEGATIONS = loadNegations()
