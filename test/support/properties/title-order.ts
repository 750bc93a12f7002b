/**
 * Titles in French collation (title-order.ts) against Intl.Collator: pairs of titles, random titles
 * of letters, marks, ligatures, digits and punctuation, and titles one character apart. Shared by the
 * unit tier (tens of titles and hundreds of random ones, a quick check) and the scale tier (every pair
 * of the sample's titles, thousands of random ones).
 */
import { expect } from 'vitest'
import { compareTitles, primaryKey } from '../../../src/core/search/title-order.js'

const collator = new Intl.Collator('fr')
const fast = (a: string, b: string) => compareTitles(a, primaryKey(a), b, primaryKey(b))

/** A deterministic pseudo-random sequence (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

// Every printable ASCII character, letters with marks, ligatures, and characters left to the
// collator (typographic quotes, no-break space, €, ß, a combining accent, Greek); letters, marks and
// spaces twice, so that titles share prefixes.
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i))
const ALPHABET = [
  ...PRINTABLE_ASCII,
  ...'aAeEoO  éÉèêëàâçÇîïôöùûüÿœŒæÆ'.repeat(2),
  '’',
  '«',
  '»',
  '\u00a0',
  '€',
  'ß',
  '\u0301',
  'ø',
  'ñ',
  'ı',
  'Ω',
]

function titles(count: number, seed: number): string[] {
  const next = random(seed)
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 9) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(
      '',
    ),
  )
}

/** Every pair of `all` is ordered as the collator orders it. */
export function expectEveryPairOrdered(all: string[]): void {
  for (const a of all)
    for (const b of all)
      expect([a, b, Math.sign(fast(a, b))]).toEqual([a, b, Math.sign(collator.compare(a, b))])
}

/** `count` random titles: each next to the following, and all of them sorted, as the collator orders them. */
export function expectRandomTitlesOrdered(count: number): void {
  const words = titles(count, 17)
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i]!, words[i + 1]!]
    expect([a, b, Math.sign(fast(a, b))]).toEqual([a, b, Math.sign(collator.compare(a, b))])
  }
  expect([...words].sort(fast)).toEqual([...words].sort(collator.compare))
}

/** `count` random titles, each against itself with one character changed, as the collator orders them. */
export function expectOneCharacterApartOrdered(count: number): void {
  const next = random(29)
  for (const word of titles(count, 23)) {
    const at = Math.floor(next() * (word.length + 1))
    const variant = word.slice(0, at) + ALPHABET[Math.floor(next() * ALPHABET.length)] + word.slice(at + 1)
    expect([word, variant, Math.sign(fast(word, variant))]).toEqual([
      word,
      variant,
      Math.sign(collator.compare(word, variant)),
    ])
  }
}
