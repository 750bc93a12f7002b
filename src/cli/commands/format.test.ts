import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../../core/records/record.js'
import { attribution, clean, formatDetail, formatSearchHeading, formatSummary, isOfficial } from './format.js'

const fixture = JSON.parse(readFileSync('test/fixtures/records.small.json', 'utf8')) as Fact[]
const record = (id: string) => fixture.find((r) => r.id === id)!

describe('formatSummary', () => {
  it('labels lessons, method and offers as not official rules, and shows no provenance for them', () => {
    const offer = fixture.find((r) => r.kind === 'offer')!
    const method = fixture.find((r) => r.kind === 'expertise')!
    expect(formatSummary(offer).split('\n')[0]).toBe(
      `[OFFER · commercial, not an official rule] ${offer.title}`,
    )
    expect(formatSummary(method).split('\n')[0]).toBe(`[METHOD · not an official rule] ${method.title}`)
    expect(formatSummary(offer)).not.toContain('Official sources')
    expect(formatSummary(offer)).not.toContain('Verified')
  })

  it('shows the official sources a lesson rests on, and says when no verification date is documented', () => {
    const lesson = record('page-4eb2aa72a21336ea')
    expect(isOfficial(lesson)).toBe(true)
    expect(formatSummary(lesson)).toContain(
      '  Official sources cited:\n    - Code de la route, article R415-5 — https://',
    )
    expect(formatSummary(lesson)).toContain('  Verification date: not documented')
  })

  it('ends with the attribution line', () => {
    const fact = record('fait-fab1ae2fa3566c3d')
    expect(formatSummary(fact).split('\n').at(-1)).toBe(`  ${attribution(fact)}`)
    expect(attribution(fact)).toBe(`Source : Taux d'alcoolémie du permis probatoire — ${fact.url}`)
    expect(formatSummary(fact)).toContain('  In force since 2015-07-01')
  })
})

describe('formatDetail', () => {
  it('shows the text, and a modification date as no verification', () => {
    const fact = { ...record('fait-643b555e754f953d'), modified_at: '2026-01-02T03:04:05Z' }
    const text = formatDetail(fact)
    expect(text).toContain(`  ${fact.text}`)
    expect(text).toContain('  Last modified 2026-01-02T03:04:05Z (a modification, not a verification)')
    expect(text.split('\n').at(-1)).toBe(attribution(fact))
  })
})

describe('clean', () => {
  it('strips terminal escapes but keeps line breaks and tabs', () => {
    expect(clean('a\u001b[2Jb\u0007c\n\td\u009b')).toBe('a[2Jbc\n\td')
  })
})

describe('formatSearchHeading', () => {
  it('says how many match, which are shown, and where the next page starts', () => {
    expect(formatSearchHeading('vitesse', 1, 0, 1)).toBe('1 record matches "vitesse" (showing 1–1)')
    expect(formatSearchHeading(undefined, 30, 10, 10)).toBe(
      '30 records match (showing 11–20; next page: --offset 20)',
    )
    expect(formatSearchHeading('x', 0, 0, 0)).toBe('0 records match "x"')
    expect(formatSearchHeading('x', 5, 10, 0)).toBe('5 records match "x"; none at offset 10')
  })
})
