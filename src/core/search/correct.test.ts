import { describe, expect, it } from 'vitest'
import { boundedDistance, closestWord, maxEdits, splitWord, type CorrectionVocabulary } from './correct.js'

const vocabulary = (frequencies: Record<string, number>): CorrectionVocabulary => ({
  wordsOfLength: (length) => Object.keys(frequencies).filter((w) => w.length === length),
  frequency: (word) => frequencies[word] ?? 0,
})

describe('boundedDistance', () => {
  it.each([
    ['trotoir', 'trottoir', 1],
    ['vitsese', 'vitesse', 1], // a transposition is one edit
    ['otoroute', 'autoroute', 2],
    ['telefone', 'telephone', 2],
    ['abc', 'abc', 0],
  ])('%s → %s: %i', (a, b, d) => expect(boundedDistance(a, b, 2)).toBe(d))
  it('stops past the bound', () => {
    expect(boundedDistance('permis', 'panneau', 2)).toBe(3)
    expect(boundedDistance('a', 'abcdef', 2)).toBe(3)
  })
})

describe('maxEdits', () => {
  it.each([
    [3, 0],
    [4, 1],
    [5, 1],
    [7, 1],
    [8, 2],
    [12, 2],
  ])('a word of %i letters: %i', (length, edits) => expect(maxEdits(length)).toBe(edits))
})

describe('closestWord', () => {
  it('takes the fewest edits, then the same first letter, then the most frequent', () => {
    expect(closestWord('trotoir', vocabulary({ trottoir: 1, trotteur: 50 }), 2)).toBe('trottoir')
    expect(closestWord('pont', vocabulary({ mont: 90, port: 10 }), 1)).toBe('port')
    expect(closestWord('gilet', vocabulary({ galet: 1, gilets: 5 }), 1)).toBe('gilets')
  })
  it('finds nothing beyond the bound', () => {
    expect(closestWord('zzzz', vocabulary({ zone: 9 }), 1)).toBeUndefined()
  })
})

describe('splitWord', () => {
  it('splits two indexed words run together, preferring the split whose rarer half is the most frequent', () => {
    expect(splitWord('autoecole', vocabulary({ auto: 4, ecole: 9, autoe: 1 }))).toEqual(['auto', 'ecole'])
    expect(splitWord('checklist', vocabulary({ check: 1 }))).toBeUndefined()
  })
})
