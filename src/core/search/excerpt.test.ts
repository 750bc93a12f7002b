import { describe, expect, it } from 'vitest'
import { EXCERPT_SCAN_LIMIT, excerpt, excerptSource, foldedWords, highlight } from './excerpt.js'

const matches = (parts: { text: string; match: boolean }[]) => parts.filter((p) => p.match).map((p) => p.text)

describe('highlight', () => {
  it('marks the words the index matched: accents, case, ligatures and plurals folded as the index folds them', () => {
    const words = foldedWords(['priorite', 'coeur', 'panneau'])
    expect(matches(highlight('Les Priorités du CŒUR de ville et ses panneaux', words))).toEqual([
      'Priorités',
      'CŒUR',
      'panneaux',
    ])
  })
  it('marks whole words only, and elided words after their apostrophe', () => {
    const words = foldedWords(['autoroute'])
    expect(matches(highlight("Sur l'autoroute, les autoroutiers", words))).toEqual(['autoroute'])
  })
  it('keeps the text whole around the marks', () => {
    const parts = highlight('Vitesse en agglomération', foldedWords(['agglomeration']))
    expect(parts).toEqual([
      { text: 'Vitesse en ', match: false },
      { text: 'agglomération', match: true },
    ])
  })
})

describe('excerpt', () => {
  const long = `${'Début sans intérêt. '.repeat(20)}Ici la vitesse est limitée. ${'Suite sans intérêt. '.repeat(20)}`
  it('cuts around the searched words, at word boundaries, with ellipses where it cut', () => {
    const parts = excerpt(long, foldedWords(['vitesse']), 120)
    const text = parts.map((p) => p.text).join('')
    expect(text.startsWith('… ')).toBe(true)
    expect(text.endsWith(' …')).toBe(true)
    expect(matches(parts)).toEqual(['vitesse'])
    expect(text.length).toBeLessThanOrEqual(124)
    expect(text.slice(2)).toMatch(/^(Début|intérêt\.|sans) /) // a whole word, never a piece of one
  })
  it('prefers the passage holding the most distinct searched words', () => {
    const text = `La vitesse seule. ${'Rien. '.repeat(40)}Ici vitesse et agglomération ensemble.`
    const parts = excerpt(text, foldedWords(['vitesse', 'agglomération']), 80)
    expect(matches(parts)).toEqual(['vitesse', 'agglomération'])
  })
  it('starts at the beginning when nothing matched, and keeps a short text whole', () => {
    expect(excerpt('Un texte court.\nSur deux lignes.', new Set())).toEqual([
      { text: 'Un texte court. Sur deux lignes.', match: false },
    ])
  })
})

describe('excerpt of a long text', () => {
  it('chooses the passage the quadratic search of every window chose, in linear time', () => {
    // The former algorithm, kept as the reference: every hit tried as anchor, its window counted anew.
    const reference = (text: string, words: Set<string>, maxLength: number) => {
      const found = [...text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)]
        .map((m) => ({
          start: m.index,
          end: m.index + m[0].length,
          word: foldedWords([m[0]]).values().next().value as string,
        }))
        .filter((h) => words.has(h.word))
      let best = 0
      let bestCount = 0
      for (const h of found) {
        const from = Math.max(0, h.start - 60)
        const distinct = new Set(
          found.filter((o) => o.start >= from && o.end <= from + maxLength).map((o) => o.word),
        ).size
        if (distinct > bestCount) [best, bestCount] = [from, distinct]
      }
      return text.slice(best <= 0 ? 0 : text.lastIndexOf(' ', best) + 1).slice(0, 30)
    }
    const words = foldedWords(['vitesse', 'pluie', 'autoroute'])
    const pieces = ['vitesse', 'pluies', 'Autoroute', 'rien', 'encore', 'texte', 'de', 'la']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 120 }, () => pieces[next() % pieces.length]).join(' ')
      const shown = excerpt(text, words, 80)
        .map((p) => p.text)
        .join('')
        .replace(/^… /, '')
      expect(shown.slice(0, 30), text).toBe(reference(text, words, 80))
    }
  })
  it('searches only the first EXCERPT_SCAN_LIMIT characters, and says the text goes on', () => {
    const text = `${'bla '.repeat(EXCERPT_SCAN_LIMIT / 4)}vitesse ${'bla '.repeat(100_000)}`
    const parts = excerpt(text, foldedWords(['vitesse']), 240)
    expect(parts.filter((p) => p.match)).toEqual([])
    expect(parts.at(-1)).toEqual({ text: ' …', match: false })
    expect(parts.map((p) => p.text).join('').length).toBeLessThan(260)
  })
  it('takes the excerpt from the description when only it holds a searched word', () => {
    const words = foldedWords(['permis'])
    expect(
      excerptSource({ text: 'Aucun mot cherché ici.', description: 'Le permis probatoire.' }, words),
    ).toBe('Le permis probatoire.')
    expect(excerptSource({ text: 'Le permis ici.', description: 'Le permis là.' }, words)).toBe(
      'Le permis ici.',
    )
  })
})
