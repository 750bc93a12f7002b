import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { compareTitles, primaryKey } from './title-order.js'

const collator = new Intl.Collator('fr')
const sample = (JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }).records
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
const ALPHABET = [...PRINTABLE_ASCII, ...'aAeEoO  éÉèêëàâçÇîïôöùûüÿœŒæÆ'.repeat(2), '’', '«', '»', '\u00a0', '€', 'ß', '\u0301', 'ø', 'ñ', 'ı', 'Ω']

function titles(count: number, seed: number): string[] {
  const next = random(seed)
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 9) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''))
}

describe('titles in French collation', () => {
  it('orders every pair of the sample titles as the collator does', () => {
    const all = sample.map((record) => record.title)
    for (const a of all) for (const b of all) expect([a, b, Math.sign(fast(a, b))]).toEqual([a, b, Math.sign(collator.compare(a, b))])
  })

  it('orders random titles of letters, marks, ligatures, digits and punctuation as the collator does', () => {
    const words = titles(4_000, 17)
    for (let i = 0; i + 1 < words.length; i++) {
      const [a, b] = [words[i]!, words[i + 1]!]
      expect([a, b, Math.sign(fast(a, b))]).toEqual([a, b, Math.sign(collator.compare(a, b))])
    }
    expect([...words].sort(fast)).toEqual([...words].sort(collator.compare))
  })

  it('orders titles that differ in one character only as the collator does', () => {
    const next = random(29)
    for (const word of titles(3_000, 23)) {
      const at = Math.floor(next() * (word.length + 1))
      const variant = word.slice(0, at) + ALPHABET[Math.floor(next() * ALPHABET.length)] + word.slice(at + 1)
      expect([word, variant, Math.sign(fast(word, variant))]).toEqual([word, variant, Math.sign(collator.compare(word, variant))])
    }
  })

  it('keys the titles it can, and leaves the others to the collator', () => {
    expect(primaryKey('Priorité à droite : le panneau AB2')).toBeDefined()
    expect(primaryKey('Cœur')).toBe(primaryKey('coeur'))
    expect(primaryKey('Côte')).toBe(primaryKey('cote'))
    expect(primaryKey('L’alcool')).toBeUndefined()
    expect(primaryKey('135 €')).toBeUndefined()
  })
})
