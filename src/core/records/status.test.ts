import { describe, expect, it } from 'vitest'
import { KINDS } from './record.js'
import {
  RECORD_STATUSES,
  ageInDays,
  ageInWords,
  needsReverification,
  statusOf,
  statusPhrase,
  verificationAgeField,
} from './status.js'

const NOW = new Date('2026-11-28T15:00:00Z')

describe('statusOf', () => {
  it('gives every kind a status, and only facts are official rules', () => {
    for (const kind of KINDS) expect(RECORD_STATUSES).toContain(statusOf({ kind }))
    expect(KINDS.filter((kind) => statusOf({ kind }) === 'official_rule')).toEqual(['fact'])
    expect(statusOf({ kind: 'lesson' })).toBe('explanation')
    expect(statusOf({ kind: 'offer' })).toBe('offer')
  })
})

describe('ageInWords', () => {
  it('counts whole calendar days, then months, then years', () => {
    expect(ageInWords('2026-11-28', NOW)).toBe('aujourd’hui')
    expect(ageInWords('2026-11-27', NOW)).toBe('hier')
    expect(ageInWords('2026-11-16', NOW)).toBe('il y a 12 jours')
    expect(ageInWords('2026-07-15', NOW)).toBe('il y a 4 mois')
    expect(ageInWords('2025-12-10', NOW)).toBe('il y a 11 mois')
    expect(ageInWords('2025-11-01', NOW)).toBe('il y a 1 an')
    expect(ageInWords('2024-09-15', NOW)).toBe('il y a 2 ans')
  })
  it('reads a date after now as today, and an unreadable one as given', () => {
    expect(ageInWords('2027-01-01', NOW)).toBe('aujourd’hui')
    expect(ageInWords('bientôt', NOW)).toBe('le bientôt')
  })
})

describe('verificationAgeField', () => {
  it('gives whole days since the verification, flagged past twelve months for official rules only', () => {
    expect(ageInDays('2026-11-27', NOW)).toBe(1)
    expect(verificationAgeField({ kind: 'fact', verified_at: '2026-11-28' }, NOW)).toBe('0')
    expect(verificationAgeField({ kind: 'fact', verified_at: '2026-07-15' }, NOW)).toBe('136')
    expect(verificationAgeField({ kind: 'fact', verified_at: '2025-11-28' }, NOW)).toBe('365')
    expect(verificationAgeField({ kind: 'fact', verified_at: '2025-11-27' }, NOW)).toBe('366;reverify')
    // An explanation's date is shown, never flagged: it is not checked against the texts.
    expect(verificationAgeField({ kind: 'lesson', verified_at: '2024-01-01' }, NOW)).toBe('1062')
  })
  it('says nothing without a readable date', () => {
    expect(verificationAgeField({ kind: 'fact' }, NOW)).toBeUndefined()
    expect(verificationAgeField({ kind: 'fact', verified_at: 'bientôt' }, NOW)).toBeUndefined()
  })
})

describe('statusPhrase', () => {
  it('says what the record is and how old its verification is', () => {
    expect(statusPhrase({ kind: 'fact', verified_at: '2026-07-15' }, NOW)).toBe(
      'règle officielle, vérifiée il y a 4 mois sur le texte officiel',
    )
    expect(statusPhrase({ kind: 'fact' }, NOW)).toBe('règle officielle, date de vérification non documentée')
    expect(statusPhrase({ kind: 'lesson' }, NOW)).toBe('leçon (explication), pas une règle officielle')
    expect(statusPhrase({ kind: 'offer' }, NOW)).toBe('offre commerciale, pas une règle officielle')
  })
})

it('says nothing of verification for an explanation without a date, even one citing official texts', () => {
  expect(statusPhrase({ kind: 'lesson' }, NOW)).toBe('leçon (explication), pas une règle officielle')
  expect(statusPhrase({ kind: 'lesson', verified_at: '2026-11-20' }, NOW)).toBe(
    'leçon (explication), pas une règle officielle, vérifiée il y a 8 jours sur le texte officiel',
  )
})

describe('needsReverification', () => {
  it('flags an official rule verified more than 12 calendar months ago, and only that', () => {
    expect(needsReverification({ kind: 'fact', verified_at: '2025-11-28' }, NOW)).toBe(false)
    expect(needsReverification({ kind: 'fact', verified_at: '2025-11-27' }, NOW)).toBe(true)
    expect(needsReverification({ kind: 'fact', verified_at: '2019-01-01' }, NOW)).toBe(true)
    expect(needsReverification({ kind: 'fact' }, NOW)).toBe(false)
    expect(needsReverification({ kind: 'lesson', verified_at: '2019-01-01' }, NOW)).toBe(false)
    expect(needsReverification({ kind: 'fact', verified_at: 'jamais' }, NOW)).toBe(false)
  })

  it('is said in the status phrase the MCP answers repeat', () => {
    expect(statusPhrase({ kind: 'fact', verified_at: '2024-09-15' }, NOW)).toBe(
      'règle officielle, vérifiée il y a 2 ans sur le texte officiel, à revérifier (vérification de plus de 12 mois)',
    )
    expect(statusPhrase({ kind: 'lesson', verified_at: '2024-09-15' }, NOW)).not.toContain('revérifier')
  })
})
