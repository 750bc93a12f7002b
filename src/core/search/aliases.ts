/**
 * Domain aliases (data/search/aliases.json): abbreviations, everyday words and spelling variants
 * that should find the records' own words — "moto" finds "motocyclette", "vitesse max" finds
 * "vitesse maximale". Applied to queries only, so the index and the records stay as published.
 *
 * A phrase of the query (one word or several in a row) that an entry names becomes one word of the
 * search whose alternatives are the phrase itself and its aliases: AND still holds, since the record
 * must contain the phrase or one alias. docs/search.md gives the measured effect of each kind.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { isIgnorable } from './stop-words.js'
import { tokenize } from './tokenize.js'

const phrases = z.array(z.string().min(1)).min(1)
const common = {
  kind: z.enum(['abbreviation', 'everyday', 'synonym', 'spelling', 'old-name', 'sms', 'english']),
  reason: z.string().min(10),
}
export const AliasFileSchema = z.strictObject({
  version: z.int().positive(),
  about: z.string(),
  aliases: z.array(
    z.union([
      z.strictObject({ ...common, same: phrases.min(2) }),
      z.strictObject({ ...common, when: phrases, also: phrases }),
    ]),
  ),
})
export type AliasFile = z.infer<typeof AliasFileSchema>

/** A phrase as written in the file (for the answer) and as the words it must find. */
export type AliasPhrase = { text: string; words: readonly string[] }

/** A phrase of the query that has aliases: how many query words it spans, and what else it finds. */
export type AliasMatch = { length: number; also: readonly AliasPhrase[] }

export class AliasTable {
  readonly version: number
  /** By first word: the phrases starting with it (longest first) and their aliases. */
  readonly #byFirstWord = new Map<string, { words: readonly string[]; also: AliasPhrase[] }[]>()

  /**
   * `significant` says which folded words of a phrase are matched (by default, those not ignored by
   * every query; the English glossary matches English words that are French fillers, such as « car »).
   */
  constructor(file: AliasFile, significant: (word: string) => boolean = (w) => !isIgnorable(w)) {
    this.version = file.version
    const toPhrase = (text: string): AliasPhrase => phraseOf(text, significant)
    for (const entry of file.aliases) {
      const pairs =
        'same' in entry
          ? entry.same.map((p) => [p, entry.same.filter((q) => q !== p)] as const)
          : entry.when.map((p) => [p, entry.also] as const)
      for (const [from, to] of pairs) this.#add(toPhrase(from), to.map(toPhrase))
    }
    for (const list of this.#byFirstWord.values()) list.sort((a, b) => b.words.length - a.words.length)
  }

  #add(from: AliasPhrase, also: AliasPhrase[]): void {
    const list = this.#byFirstWord.get(from.words[0]!) ?? []
    const same = list.find((e) => e.words.join(' ') === from.words.join(' '))
    if (same) same.also.push(...also.filter((a) => !same.also.some((b) => b.text === a.text)))
    else list.push({ words: from.words, also })
    this.#byFirstWord.set(from.words[0]!, list)
  }

  /** The longest phrase with aliases that starts at `words[at]` (significant, folded words), if any. */
  match(words: readonly string[], at: number): AliasMatch | undefined {
    for (const entry of this.#byFirstWord.get(words[at]!) ?? []) {
      if (entry.words.every((w, i) => words[at + i] === w))
        return { length: entry.words.length, also: entry.also }
    }
    return undefined
  }

  /** Every phrase of the table in `words`, left to right, each the longest at its place, none overlapping. */
  spans(words: readonly string[]): { at: number; length: number }[] {
    const found: { at: number; length: number }[] = []
    for (let at = 0; at < words.length;) {
      const length = this.match(words, at)?.length
      if (length === undefined) at++
      else {
        found.push({ at, length })
        at += length
      }
    }
    return found
  }
}

/** A phrase's significant folded words: "bande d'arrêt d'urgence" must find bande, arret, urgence. */
function phraseOf(text: string, significant: (word: string) => boolean): AliasPhrase {
  const words = tokenize(text).filter(significant)
  if (words.length === 0) throw new Error(`aliases: "${text}" has no significant word`)
  return { text, words }
}

/** data/search/aliases.json, beside dist/ and src/ alike. */
export const ALIASES_FILE = new URL('../../../data/search/aliases.json', import.meta.url)

/** Reads and checks the alias file; a malformed file stops the service at start, never mid-request. */
export function loadAliases(file: URL = ALIASES_FILE): AliasTable {
  return new AliasTable(AliasFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}
