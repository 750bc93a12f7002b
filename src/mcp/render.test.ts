import { describe, expect, it } from 'vitest'
import type { SearchEnvelope } from '../core/api/schemas.js'
import { renderSearch } from './render.js'

const empty = { results: [], total: 0, limit: 10, offset: 0 }
const interpretation = { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }

describe('renderSearch', () => {
  it('says how q was read: required, ignored, corrected and expanded words', () => {
    const { text } = renderSearch({
      ...empty,
      total: 0,
      interpretation: {
        ...interpretation,
        words: ['stationner', 'trottoir'],
        ignored: ['est', 'ce', 'que'],
        corrected: [{ from: 'trotoir', to: 'trottoir' }],
        expanded: [{ word: 'stationner', with: ['stationnement', 'garer'] }],
        relaxed: [
          { without: 'trottoir', q: 'stationner', total: 12 },
          { without: 'stationner', q: 'trottoir', total: 20 },
        ],
      },
    })
    expect(text).toContain('Required words: "stationner", "trottoir".')
    expect(text).toContain('Ignored (stop or question words): "est", "ce", "que".')
    expect(text).toContain('Corrected (found nowhere as typed): "trotoir" → "trottoir".')
    expect(text).toContain('Also matched: "stationner" (stationnement, garer).')
    expect(text).toContain(
      'No record holds every required word. Queries that would match: q="stationner" (12 record(s), without "trottoir"); q="trottoir" (20 record(s), without "stationner"). Retry with one of them.',
    )
  })
  it('says when no relaxed query would match either', () => {
    const page: SearchEnvelope = { ...empty, interpretation: { ...interpretation, words: ['zzzz', 'yyyy'] } }
    expect(renderSearch(page).text).toContain(
      'No record holds every required word, and no query without one of them matches either.',
    )
    expect(renderSearch({ ...empty, interpretation: { ...interpretation, words: ['zzzz'] } }).text).toContain(
      'No record holds this word',
    )
  })
  it('under best match, says which words the first records hold and what each result lacks', () => {
    const record = {
      id: 'fait-0123456789abcdef',
      title: 'Priorité à droite',
      kind: 'lesson',
      url: 'https://example.test/p',
      text: 't',
      sources: [],
    } as unknown as SearchEnvelope['results'][number]
    const { text } = renderSearch({
      ...empty,
      results: [record],
      total: 1,
      interpretation: {
        ...interpretation,
        words: ['priorité', 'droite', 'camion'],
        matched: ['priorité', 'droite'],
        left_out: ['camion'],
        missing: [{ id: record.id, words: ['camion'] }],
      },
    })
    expect(text).toContain(
      'No record holds every required word: the first 1 hold "priorité", "droite", not "camion"',
    )
    expect(text).toContain('   Lacks: "camion".')
  })
  it('adds nothing without q', () => {
    expect(renderSearch(empty).text).not.toContain('Required words')
  })
})
