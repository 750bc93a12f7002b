import { describe, expect, it } from 'vitest'
import { fakeFact } from '../../../test/support/scripted-server.js'
import type { SearchEnvelope } from '../../client/index.js'
import {
  interpretationLines,
  noMatchLines,
  readInterpretation,
  searchCommand,
  shellWord,
  type Interpretation,
} from './interpretation.js'
import { formatSearchPage } from './search.js'

const none: Interpretation = { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
const page = (total: number, interpretation?: Interpretation, results = [] as unknown[]) =>
  ({
    results,
    total,
    limit: 10,
    offset: 0,
    ...(interpretation && { interpretation }),
  }) as unknown as SearchEnvelope

describe('readInterpretation', () => {
  it('reads the object the service sends', () => {
    const i = { ...none, words: ['trottoir'], corrected: [{ from: 'trotoir', to: 'trottoir' }] }
    expect(readInterpretation(page(1, i))).toEqual(i)
  })
  it('ignores an envelope without one (an older service) or with a malformed one', () => {
    expect(readInterpretation(page(1))).toBeUndefined()
    expect(
      readInterpretation({ ...page(1), interpretation: { ...none, relaxed: [{ q: 'x' }] } }),
    ).toBeUndefined()
    expect(readInterpretation({ ...page(1), interpretation: 'words' })).toBeUndefined()
  })
})

describe('interpretationLines', () => {
  it('says nothing when every word was taken as typed', () => {
    expect(interpretationLines({ ...none, words: ['vitesse'] })).toEqual([])
  })
  it('names the words ignored, corrected and expanded, after the words searched', () => {
    expect(
      interpretationLines({
        words: ['stationner', 'trottoir', 'auto'],
        ignored: ['est', 'ce', 'que'],
        corrected: [{ from: 'trotoir', to: 'trottoir' }],
        expanded: [{ word: 'auto', with: ['voiture', 'vehicule'] }],
        relaxed: [],
      }),
    ).toEqual([
      'Searched for: stationner trottoir auto',
      'Ignored (too common to search for): est, ce, que',
      'Corrected: trotoir → trottoir',
      'Also matched: auto (also voiture, vehicule)',
    ])
  })
})

describe('noMatchLines', () => {
  it('explains how words are matched (itself, a form, an alias; never a prefix) even without an interpretation', () => {
    const text = noMatchLines(undefined, {}).join('\n')
    expect(text).toContain(
      'A word counts when a record holds it, one of its forms (stationner,\nstationnement) or an alias (moto, motocyclette)',
    )
    expect(text).toContain(
      'it is not matched as the\nstart of a longer word ("agglo" does not find "agglomération")',
    )
    expect(text).not.toContain('matched whole')
  })
  it('lists the relaxed queries as commands to run, with their totals and the filters given', () => {
    const i = {
      ...none,
      words: ['stationner', 'trottoir', 'agglo'],
      relaxed: [
        { without: 'agglo', q: 'stationner trottoir', total: 12 },
        { without: 'trottoir', q: 'stationner agglo', total: 1 },
      ],
    }
    expect(noMatchLines(i, { kind: 'fact' }).slice(3)).toEqual([
      '',
      'Without one word, these would match:',
      '  reference-records search stationner trottoir --kind fact   # 12 records, without "agglo"',
      '  reference-records search stationner agglo --kind fact      # 1 record, without "trottoir"',
    ])
  })
})

describe('searchCommand and shellWord', () => {
  it('quotes what a shell would split or expand', () => {
    expect(shellWord('priorité')).toBe('priorité')
    expect(shellWord("l'alcool")).toBe(`'l'\\''alcool'`)
    expect(shellWord('$HOME')).toBe(`'$HOME'`)
    expect(searchCommand('  feu   rouge ', { kind: undefined, region: 'france' })).toBe(
      'reference-records search feu rouge --region france',
    )
  })
})

describe('formatSearchPage', () => {
  it('shows how the words were read above the results', () => {
    const i = { ...none, words: ['trottoir'], corrected: [{ from: 'trotoir', to: 'trottoir' }] }
    const text = formatSearchPage(page(1, i, [fakeFact(1)]), { q: 'trotoir' })
    expect(text.split('\n').slice(0, 4)).toEqual([
      '1 record matches "trotoir" (showing 1–1)',
      '  Searched for: trottoir',
      '  Corrected: trotoir → trottoir',
      '',
    ])
  })
  it('gives the no-match help only to a search with words', () => {
    expect(formatSearchPage(page(0), { q: 'agglo' })).toContain('one of its forms')
    expect(formatSearchPage(page(0), { kind: 'tool' })).toBe('0 records match\n')
  })
})
