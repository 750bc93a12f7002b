/**
 * Measures in a query (docs/search.md, "Numbers and units"): "25 km/h", "0,5 g/l", "135 euros",
 * "50kmh". A number with its unit is one thing the person asks about, so it is one required word of
 * the query, not three: "km" and "h" are not searched apart, and a record writing "135 €" (the sign
 * is not a word) answers "135 euros" by its number. In a best match a measure weighs as a word:
 * weighing it less (0.5 and 0.8 were measured on the relevance table) ranked records sharing only the
 * question's common words above the one stating its figure ("scooter 50 cm3", "flashé à 97 sur
 * une route à 80"), and gained nothing on the number queries.
 */
import { queryTokens, tokenize, type QueryToken } from './tokenize.js'

/**
 * Unit symbols and abbreviations the driving domain writes after a number: speeds, distances,
 * masses and loads, alcohol levels, money, durations, engine power and noise. Words that are units
 * but also plain words of the records ("ans", "mois", "points", "jours", "tonnes") are not here:
 * they are searched as words, as the records hold them.
 */
const UNIT_WORDS: ReadonlySet<string> = new Set([
  'km', // kilomètres, and « km/h »
  'kmh', // « kmh », how people type « km/h »
  'kph',
  'h', // heures, and « km/h »
  'm', // mètres, and « m/s »
  'cm',
  'mm',
  'kg',
  't', // tonnes: « 3,5 t »
  'g', // « 0,5 g/l »
  'mg', // « 0,25 mg/l » of exhaled air
  'l',
  'ml',
  'cl',
  's', // secondes: « 2 s »
  'sec',
  'min',
  'mn',
  'eur',
  'euro',
  'euros',
  'kw',
  'ch', // chevaux
  'cv', // chevaux fiscaux
  'cc',
  'cm3',
  'db',
])

/**
 * What the records also write instead of a unit's symbol ("3,5 tonnes" for "3,5 t"), folded as the
 * index folds words: a measure finds both spellings.
 */
export const UNIT_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['km', ['kilometre']],
  ['kmh', ['km h']],
  ['kph', ['km h']],
  ['h', ['heure']],
  ['m', ['metre']],
  ['cm', ['centimetre']],
  ['kg', ['kilo', 'kilogramme']],
  ['t', ['tonne']],
  ['g', ['gramme']],
  ['mg', ['milligramme']],
  ['l', ['litre']],
  ['s', ['seconde']],
  ['sec', ['seconde']],
  ['min', ['minute']],
  ['mn', ['minute']],
  ['eur', ['euro']],
  ['euros', ['euro']],
  ['ch', ['cheval']],
  ['cv', ['cheval']],
  ['cc', ['cm3']],
  ['db', ['decibel']],
])

/**
 * Numbers the records write in words ("trois ans", "deux secondes", "quinze jours"): a measure
 * typed in digits also finds them. One is left out: « un », « une » are function words.
 */
const NUMBER_NAMES: ReadonlyMap<string, string> = new Map(
  (
    [
      [2, 'deux'],
      [3, 'trois'],
      [4, 'quatre'],
      [5, 'cinq'],
      [6, 'six'],
      [7, 'sept'],
      [8, 'huit'],
      [9, 'neuf'],
      [10, 'dix'],
      [11, 'onze'],
      [12, 'douze'],
      [13, 'treize'],
      [14, 'quatorze'],
      [15, 'quinze'],
      [16, 'seize'],
      [20, 'vingt'],
      [30, 'trente'],
      [40, 'quarante'],
      [50, 'cinquante'],
      [60, 'soixante'],
      [100, 'cent'],
      [1000, 'mille'],
    ] as const
  )
    // Folded as the index folds them: « trois » is indexed as « troi ».
    .map(([n, name]) => [String(n), tokenize(name)[0]!]),
)

/**
 * The ways the records may write a number typed as `words` (its folded words: "3750" is one, "0,5"
 * two): as typed, in French thousands groups ("3 750", "3 000", the records' spelling) when typed
 * whole, and in words ("trois") for the small ones.
 */
export function numberSpellings(words: readonly string[]): string[][] {
  const spellings = [[...words]]
  const whole = words.length === 1 ? words[0]! : undefined
  if (whole === undefined) return spellings
  const digits = String(Number(whole))
  if (digits.length > 3) spellings.push(digits.replace(/\B(?=(\d{3})+$)/gu, ' ').split(' '))
  const name = NUMBER_NAMES.get(digits)
  if (name !== undefined) spellings.push([name])
  return spellings
}

const NUMBER = String.raw`\d+(?:[.,]\d+)?`
const UNIT = `(?:${[...UNIT_WORDS].sort((a, b) => b.length - a.length).join('|')}|€)`
/** A number, then units joined by "/" or spaces ("km/h", "g / l", "km h"); the units are optional. */
const MEASURE = new RegExp(
  `(?<![\\p{L}\\p{N}])(${NUMBER})(?:\\s*${UNIT}(?:\\s*/?\\s*${UNIT})*)?(?![\\p{L}\\p{N}])`,
  'giu',
)

/**
 * The plain words the records write after a number (not unit symbols, so not in UNIT_WORDS: they
 * are searched as words), which people type joined to it: « 17ans », « 3mois », « 6points »,
 * « 2roues ». Joined, « 17ans » was one word no record holds, and too close to nothing to correct.
 */
const JOINED_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${NUMBER})(ans?|mois|jours?|semaines?|heures?|minutes?|secondes?|points?|places?|fautes?|questions?|tonnes?|m[eè]tres?|kilom[eè]tres?|roues?|personnes?|passagers?|enfants?|verres?|ann[ée]es?)(?![\p{L}\p{N}])`,
  'giu',
)

/**
 * Abbreviations people type after a number, joined or not, for a plain word the records write in
 * full: « 15j » and « 15 j » are « 15 jours », « 4pts » « 4 points », « 2 sem » « 2 semaines ».
 * Left as typed, « 15j » was one word no record holds, and « j » no word at all.
 */
const ABBREVIATED_WORDS: ReadonlyMap<string, string> = new Map([
  ['j', 'jours'],
  ['jr', 'jours'],
  ['jrs', 'jours'],
  ['pt', 'points'],
  ['pts', 'points'],
  ['sem', 'semaines'],
  ['hr', 'heures'],
  ['hrs', 'heures'],
])
const ABBREVIATED = new RegExp(
  // Not before an apostrophe: « 2 j'ai » keeps its « j' ».
  String.raw`(?<![\p{L}\p{N}])(${NUMBER})\s*(${[...ABBREVIATED_WORDS.keys()].join('|')})(?![\p{L}\p{N}'’ʼ])`,
  'giu',
)

/**
 * The query with each number joined to a plain word split from it (« 17ans » → « 17 ans »), and each
 * abbreviation after a number written out (« 15j » → « 15 jours »), for withMeasures and the tokens alike.
 */
export const splitJoinedWords = (query: string): string =>
  query
    .normalize('NFC')
    .replace(JOINED_WORD, (_, number: string, word: string) => `${number} ${word}`)
    .replace(
      ABBREVIATED,
      (_, number: string, short: string) => `${number} ${ABBREVIATED_WORDS.get(short.toLowerCase())!}`,
    )

/**
 * The same mass in the unit the records may write it in: the rules write loads in kilograms
 * (« 3 500 kg »), the lessons in tonnes (« 3,5 tonnes »), and people type either (« remorque 3,5t »).
 * A measure in tonnes also finds its kilograms, and one of a thousand kilograms or more its tonnes.
 */
export function convertedMeasures(
  number: readonly string[],
  unit: readonly string[],
): { number: string[]; unit: string[] }[] {
  const value = Number(number.join('.'))
  if (unit.length !== 1 || !Number.isFinite(value)) return []
  if (unit[0] === 't') return [{ number: [String(Math.round(value * 1000))], unit: ['kg'] }]
  if (unit[0] === 'kg' && value >= 1000 && value % 100 === 0)
    return [{ number: String(value / 1000).split('.'), unit: ['t'] }]
  return []
}

/** A query token that stands for a measure: its number's words, then its unit's words. */
export type MeasureToken = QueryToken & { measure: { number: string[]; unit: string[] } }

export const isMeasure = (token: QueryToken): token is MeasureToken => 'measure' in token

/**
 * The query's tokens with each measure made one token (`word` is its number as typed, folded;
 * `typed` the measure as typed). Bare numbers are measures too (without a unit): the same weight
 * in best match, and a decimal "0,5" stays one number instead of "0" and "5".
 */
export function withMeasures(query: string, tokens: readonly QueryToken[]): QueryToken[] {
  const measures = [...query.normalize('NFC').matchAll(MEASURE)].map((m) => {
    const numberWords = queryTokens(m[1]!).map((t) => t.word)
    // "50kmh" is one word of the query, "50 km/h" three: the token words are what the query holds.
    const unitWords = queryTokens(m[0].slice(m[1]!.length)).map((t) => t.word)
    return {
      words: queryTokens(m[0]).map((t) => t.word),
      token: {
        word: numberWords.join(','),
        typed: m[0].replace(/\s+/gu, ' ').trim(),
        measure: { number: numberWords, unit: unitWords },
      } satisfies MeasureToken,
    }
  })
  if (measures.length === 0) return [...tokens]
  const out: QueryToken[] = []
  let next = 0
  for (let at = 0; at < tokens.length;) {
    const m = measures[next]
    if (m !== undefined && m.words.every((w, k) => tokens[at + k]?.word === w)) {
      out.push(m.token)
      at += m.words.length
      next++
      continue
    }
    out.push(tokens[at]!)
    at++
  }
  return out
}
