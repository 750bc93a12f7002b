import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../core/records/record.js'
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

describe('renderSearch within its budget', () => {
  // Ten official rules of the bundled records, each citing its sources eight times over: their
  // entries (every official source is listed) overflow the answer's budget, as long real ones do.
  const records = (
    JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
      records: Fact[]
    }
  ).records
    .filter((r) => r.kind === 'fact')
    .slice(0, 10)
    .map((r) => ({ ...r, sources: Array.from({ length: 8 }, () => r.sources).flat() }))

  it.each([0, 20])(
    'names exactly the hits its text holds, and the offset of the rest (offset %i)',
    (offset) => {
      const page = { results: records, total: 40, limit: 10, offset }
      const { text, shown } = renderSearch(page)
      expect(shown).toBeGreaterThan(0)
      expect(shown).toBeLessThan(records.length)
      const held = [...text.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]))
      expect(held).toEqual(Array.from({ length: shown }, (_, i) => offset + i + 1))
      expect(text.split('\n')[0]).toBe(
        `40 matching record(s); showing ${offset + 1}–${offset + shown} (${shown} of this page's 10: the rest from offset ${offset + shown}).`,
      )
      expect(text).toContain(`call search_facts again with offset ${offset + shown}`)
    },
  )

  it('says the whole page when every hit fits', () => {
    const { text, shown } = renderSearch({ results: records.slice(0, 1), total: 1, limit: 10, offset: 0 })
    expect(shown).toBe(1)
    expect(text.split('\n')[0]).toBe('1 matching record(s); showing 1–1.')
  })
})
