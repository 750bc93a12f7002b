import { describe, expect, it } from 'vitest'
import { KIND_LABELS } from '../../core/records/provenance.js'
import { KINDS, type Fact } from '../../core/records/record.js'
import { KIND_LABELS_FR, fiches, frenchDate, frenchDuration, frenchSpacing, provenanceOf } from './labels.js'

const record = (over: Partial<Fact>): Fact => ({
  id: 'fait-0000000000000001',
  kind: 'fact',
  title: 't',
  text: 'x',
  url: 'https://e.example/',
  regions: ['France'],
  sources: [],
  ...over,
})
const official = {
  url: 'https://www.legifrance.gouv.fr/x',
  label: 'Code de la route, article R413-3',
  type: 'official' as const,
}

it('reminds, for exactly the kinds the core marks as explaining or selling, that they are not official rules', () => {
  for (const kind of KINDS) {
    expect(KIND_LABELS_FR[kind].note !== undefined, kind).toBe(KIND_LABELS[kind].note !== undefined)
    if (KIND_LABELS_FR[kind].note !== undefined)
      expect(KIND_LABELS_FR[kind].note).toMatch(/pas une règle officielle$/)
  }
})

it('follows the core’s provenance rules in French', () => {
  expect(
    provenanceOf(
      record({
        sources: [official],
        verified_at: '2026-09-15',
        verification_scope: 'Relecture.',
        effective_from: '2015-07-01',
      }),
    ),
  ).toEqual({
    official: true,
    officialHeading: 'Sources officielles',
    officialSources: [official],
    otherSources: [],
    verification: 'Vérifiée sur le texte officiel le 15 septembre 2026',
    verificationScope: 'Relecture.',
    inForceSince: 'En vigueur depuis le 1er juillet 2015',
  })
  // A lesson citing an official text stays an explanation; without a date, that is said, not hidden.
  const lesson = provenanceOf(
    record({
      id: 'page-0000000000000001',
      kind: 'lesson',
      sources: [official],
      modified_at: '2026-01-01T00:00:00Z',
    }),
  )
  expect([lesson.officialHeading, lesson.verification]).toEqual([
    'Sources officielles citées',
    'Date de vérification : non documentée',
  ])
  // A modification date is never a verification.
  const offer = provenanceOf(
    record({ id: 'offer-0000000000000001', kind: 'offer', modified_at: '2026-01-01T00:00:00Z' }),
  )
  expect([offer.official, offer.verification]).toEqual([false, undefined])
})

it('writes dates and counts the French way', () => {
  expect(frenchDate('2026-11-20T09:00:00.000Z')).toBe('20 novembre 2026')
  expect([fiches(0), fiches(1), fiches(2), fiches(1264)]).toEqual([
    '0 fiche',
    '1 fiche',
    '2 fiches',
    '1\u202f264 fiches',
  ])
})

describe('frenchDuration', () => {
  it('reads a video’s ISO 8601 duration as a reader writes it, and leaves anything else as given', () => {
    expect(frenchDuration('PT4M32S')).toBe('4 min 32 s')
    expect(frenchDuration('PT4M5S')).toBe('4 min 05 s')
    expect(frenchDuration('PT45S')).toBe('45 s')
    expect(frenchDuration('PT12M')).toBe('12 min')
    expect(frenchDuration('PT1H5M')).toBe('1 h 05 min')
    expect(frenchDuration('PT2H')).toBe('2 h')
    expect(frenchDuration('PT90S')).toBe('1 min 30 s')
    expect(frenchDuration('PT')).toBe('PT')
    expect(frenchDuration('4 minutes')).toBe('4 minutes')
  })
})

describe('frenchSpacing', () => {
  it('keeps French punctuation with the word before it', () => {
    expect(frenchSpacing('Vitesse maximale en agglomération : 50 km/h')).toBe(
      'Vitesse maximale en agglomération\u00a0: 50 km/h',
    )
    expect(frenchSpacing('Le « permis rose » ?')).toBe(
      'Le «\u00a0permis rose\u00a0» ?'.replace(' ?', '\u00a0?'),
    )
  })
})
