/**
 * Titles in French collation (`Intl.Collator('fr')`, the listing's order), compared without calling
 * the collator for most pairs. Sorting a build thread's 50 000 titles took 0.1 to 0.3 s, nearly all
 * of it in the collator, which converts both strings for ICU at every comparison.
 *
 * The collator compares the strings' primary weights (letters without accents or case, digits,
 * spaces and punctuation, which count here) before anything else. For titles written with the
 * characters whose primary weight is a single known one — printable ASCII, and Latin letters that
 * are an ASCII letter with marks (é, À, ç…), or œ and æ, which weigh as "oe" and "ae" — each title
 * gets a key: its primary weights as ranks, one UTF-16 unit each. Keys that differ order their titles
 * as the collator would; equal keys, and titles with any other character ("’", "«", "€"), are left
 * to the collator. The ranks are read from the collator itself when this module loads, and a few
 * pairs whose order is known are checked: if this ICU orders any of them otherwise, every
 * comparison goes to the collator. `title-order.test.ts` compares both orders on hundreds of titles,
 * `title-order.scale.test.ts` on every pair of the sample's titles and thousands of random ones.
 *
 * Written by hand because ICU's sort keys (`ucol_getSortKey`) are not exposed to JavaScript.
 */

const collator = new Intl.Collator('fr')
const byBase = new Intl.Collator('fr', { sensitivity: 'base' })

/** Per UTF-16 unit below LATIN_END: its primary weight as a rank (1…), 0 when unknown; EXPANSIONS hold two. */
const LATIN_END = 0x250
const RANK = new Uint16Array(LATIN_END)
const EXPANSIONS = new Map<number, string>()

function learnRanks(): boolean {
  const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).sort(
    byBase.compare,
  )
  let rank = 0
  ascii.forEach((char, i) => {
    if (i === 0 || byBase.compare(ascii[i - 1]!, char) !== 0) rank++
    RANK[char.charCodeAt(0)] = rank
  })
  const letters = ascii.filter((char) => /[a-z]/i.test(char))
  for (let unit = 0x80; unit < LATIN_END; unit++) {
    const char = String.fromCharCode(unit)
    if (!/\p{L}/u.test(char)) continue
    const same = letters.find((letter) => byBase.compare(char, letter) === 0)
    if (same !== undefined) RANK[unit] = RANK[same.charCodeAt(0)]!
  }
  for (const [char, expansion] of [
    ['œ', 'oe'],
    ['Œ', 'oe'],
    ['æ', 'ae'],
    ['Æ', 'ae'],
  ] as const) {
    if (byBase.compare(char, expansion) === 0) EXPANSIONS.set(char.charCodeAt(0), expansion)
  }
  // Orders this design relies on (spaces and punctuation weigh, below digits, below letters; accents
  // and case only after): the keys must never order a pair against the collator.
  const known: [string, string][] = [
    ['a b', 'ab'],
    ['a-b', 'ab'],
    ['a b', 'a-b'],
    ['9', 'a'],
    [' ', '0'],
    ['cote', 'côte'],
    ['côte', 'coter'],
    ['oe', 'œuf'],
    ['Zèbre', 'zebres'],
  ]
  return known.every(
    ([lower, higher]) => collator.compare(lower, higher) < 0 && compareKnown(lower, higher) <= 0,
  )
}

/** The primary key of `title`, or undefined when it holds a character whose weight is not known here. */
export function primaryKey(title: string): string | undefined {
  return usable ? keyOf(title) : undefined
}

/** Two titles in the collator's order, given their keys (undefined: unknown). */
export function compareTitles(
  a: string,
  keyA: string | undefined,
  b: string,
  keyB: string | undefined,
): number {
  if (keyA !== undefined && keyB !== undefined && keyA !== keyB) return keyA < keyB ? -1 : 1
  return a === b ? 0 : collator.compare(a, b)
}

/** Where a key is written, one byte per rank (ranks stay below 0x80), then read as a Latin-1 string. */
let scratch = Buffer.alloc(256)

function keyOf(title: string): string | undefined {
  if (title.length * 2 > scratch.length) scratch = Buffer.alloc(title.length * 4)
  let length = 0
  for (let i = 0; i < title.length; i++) {
    const unit = title.charCodeAt(i)
    const rank = unit < LATIN_END ? RANK[unit]! : 0
    if (rank !== 0) {
      scratch[length++] = rank
      continue
    }
    const expansion = EXPANSIONS.get(unit)
    if (expansion === undefined) return undefined
    for (let k = 0; k < expansion.length; k++) scratch[length++] = RANK[expansion.charCodeAt(k)]!
  }
  return scratch.toString('latin1', 0, length)
}

/** Two titles of known characters by their keys alone (while learning). */
function compareKnown(a: string, b: string): number {
  const [keyA, keyB] = [keyOf(a)!, keyOf(b)!]
  return keyA === keyB ? 0 : keyA < keyB ? -1 : 1
}

const usable = learnRanks()
