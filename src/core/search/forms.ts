/**
 * Word forms: which words of the index count as forms of a query word (stationner / stationnement /
 * stationné, dépasser / dépassement). Two words are forms of each other when they have the same
 * form key; the key comes from a light French stemmer, corrected by a reviewed exception file
 * (data/search/forms.json).
 *
 * Written by hand rather than taken from a Snowball stemmer (@orama/stemmers, natural): Snowball's
 * French algorithm strips far more and undoubles consonants, so on the sample's vocabulary it joins
 * station / stationnement, vol / volant / voler and rat / rater — the false matches a search must not
 * make. This one strips only the verb, participle, adjective and deverbal-noun endings below, and
 * only when at least five letters remain, so "volant", "garer", "passage" and "station" keep their
 * own key. docs/search-forms.md lists every group it makes on the sample (a test keeps that list
 * exact), and docs/search.md says why the harmful ones are out.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { tokenize } from './tokenize.js'

/** Endings stripped, longest first; applied to folded, plural-folded words (so "ées" is already "ee", "eux" is "eu"). */
const SUFFIXES = [
  'issement',
  'issante',
  'issant',
  'issez',
  'ement',
  'ation',
  'atoire',
  'ance',
  'euse',
  'eu',
  'age',
  'ante',
  'ant',
  'ee',
  'er',
  'ez',
  'ir',
  'ie',
  'e',
  'i',
]
/** Letters a stem keeps at least: below five, "garer" would meet "gare" and "volant" "voler". */
const MIN_STEM = 5

/**
 * Endings rewritten before the suffixes are stripped, so that forms the suffixes cannot see meet:
 * adverbs their adjective (« obligatoirement » → « obligatoire », « prudemment » → « prudent »,
 * « absolument » → « absolu »), and feminine job names and adjectives their masculine (« directrice »
 * → « directeur », « conseillère » → « conseiller », « technicienne » → « technicien », « officielle »
 * → « officiel »). Each applies only when at least `atLeast` letters remain,
 * so « logement » (« loge ») and « selle » (« sel ») keep their own key.
 */
const REWRITES: readonly { ending: string; becomes: string; atLeast: number }[] = [
  // Nouns in -issement keep their ending: the suffix « issement » joins them to their verb (ralentir).
  { ending: 'issement', becomes: 'issement', atLeast: 0 },
  { ending: 'emment', becomes: 'ent', atLeast: 6 },
  { ending: 'amment', becomes: 'ant', atLeast: 6 },
  { ending: 'ement', becomes: 'e', atLeast: 6 },
  { ending: 'ument', becomes: 'u', atLeast: 6 },
  { ending: 'trice', becomes: 'teur', atLeast: 7 },
  { ending: 'iere', becomes: 'ier', atLeast: 6 },
  { ending: 'ienne', becomes: 'ien', atLeast: 6 },
  { ending: 'elle', becomes: 'el', atLeast: 6 },
]

/**
 * A word with the first ending of `REWRITES` it has rewritten, when enough letters remain; then once
 * more, so an adverb of a feminine form reaches the masculine (« particulièrement » → « particulière »
 * → « particulier »).
 */
export function rewritten(word: string, times = 2): string {
  for (const { ending, becomes, atLeast } of REWRITES) {
    if (!word.endsWith(ending)) continue
    const result = word.slice(0, -ending.length) + becomes
    if (result.length < atLeast || result === word) return word
    return times > 1 ? rewritten(result, times - 1) : result
  }
  return word
}

/**
 * A verb in the third person plural (« traversent », « dépassent », « stationnent ») meets its
 * infinitive and its other forms. Only when at least six letters remain: below, « accident »
 * (« accid ») would leave « accidenté », and « incident », « fréquent », « agent » their own words.
 */
const PLURAL_VERB = 'ent'
const PLURAL_VERB_STEM = 6
const isPluralVerb = (word: string): boolean =>
  word.endsWith(PLURAL_VERB) && !word.endsWith('ment') && word.length - PLURAL_VERB.length >= PLURAL_VERB_STEM

/** The stemmer alone: endings rewritten, then the first (longest) suffix whose removal leaves `MIN_STEM` letters. */
function lightStem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word
  word = rewritten(word)
  if (isPluralVerb(word)) return word.slice(0, -PLURAL_VERB.length)
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= MIN_STEM && word.endsWith(suffix)) return word.slice(0, -suffix.length)
  }
  return word
}

const Entry = z.strictObject({ words: z.array(z.string().min(1)).min(1), reason: z.string().min(10) })
const FormRulesSchema = z.strictObject({
  version: z.int().positive(),
  about: z.string(),
  keep_apart: z.array(Entry),
  join: z.array(Entry.extend({ words: z.array(z.string().min(1)).min(2) })),
})
export type FormRules = z.infer<typeof FormRulesSchema>

/** Forms as the search uses them: `key(word)` is equal for two words exactly when they are forms of each other. */
export class WordForms {
  readonly version: number
  readonly #keys = new Map<string, string>()

  constructor(rules: FormRules) {
    this.version = rules.version
    // A key no stem can be (stems are letters only), so no other word ever shares it.
    for (const { words } of rules.keep_apart)
      for (const word of words.map(oneWord)) this.#keys.set(word, `=${word}`)
    for (const { words } of rules.join) {
      const folded = words.map(oneWord)
      const key = lightStem(folded[0]!)
      for (const word of folded) {
        if (this.#keys.has(word)) throw new Error(`word forms: "${word}" is listed twice`)
        this.#keys.set(word, key)
      }
    }
  }

  key(word: string): string {
    return this.#keys.get(word) ?? lightStem(word)
  }
}

/** A listed word must fold to exactly one word of the index (no spaces, hyphens or elisions). */
function oneWord(text: string): string {
  const words = tokenize(text)
  if (words.length !== 1) throw new Error(`word forms: "${text}" is not one word`)
  return words[0]!
}

/** data/search/forms.json, beside dist/ and src/ alike. */
const FORMS_FILE = new URL('../../../data/search/forms.json', import.meta.url)

/** Reads and checks the forms file; a malformed file stops the service at start, never mid-request. */
export function loadWordForms(file: URL = FORMS_FILE): WordForms {
  return new WordForms(FormRulesSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}
