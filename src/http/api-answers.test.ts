import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import type { Fact } from '../core/records/record.js'
import { verificationAgeField } from '../core/records/status.js'
import { RecordIndex } from '../core/search/record-index.js'
import { ApiAnswers, jsonAnswer } from './api-answers.js'

const SAMPLE = (
  JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }
).records
const index = RecordIndex.build({ records: SAMPLE })
const answers = () =>
  new ApiAnswers(new Catalogues({ requestsPerMinute: 120, contact: 'c@example.org' }), undefined)
const NO_CONDITIONS = { ifNoneMatch: undefined, acceptEncoding: undefined }

/** The value of header field `name` in an answer's flat list, undefined when absent. */
function field(flat: readonly string[], name: string): string | undefined {
  const i = flat.findIndex((v, k) => k % 2 === 0 && v === name)
  return i === -1 ? undefined : flat[i + 1]
}

describe("a record's Verification-Age field", () => {
  it('says every dated record its age in days, on its 200 and its 304, and nothing for an undated one', () => {
    const now = new Date('2026-11-28T10:00:00Z')
    const api = answers()
    for (const record of SAMPLE) {
      const prepared = api.record(index, record.id, now.getTime())!
      const ok = jsonAnswer(prepared, NO_CONDITIONS)
      const notModified = jsonAnswer(prepared, { ...NO_CONDITIONS, ifNoneMatch: prepared.etag })
      expect(notModified.status).toBe(304)
      const expected = record.verified_at === undefined ? undefined : verificationAgeField(record, now)
      expect(field(ok.fields.flat, 'verification-age'), record.id).toBe(expected)
      expect(field(notModified.fields.flat, 'verification-age'), record.id).toBe(expected)
    }
    expect(SAMPLE.some((r) => r.verified_at === undefined)).toBe(true)
  })

  it('grows with the day: the body is kept, its age is made again, and old rules are flagged', () => {
    const api = answers()
    const rule = SAMPLE.find((r) => r.kind === 'fact' && r.verified_at !== undefined)!
    const today = api.record(index, rule.id, Date.parse(`${rule.verified_at!}T08:00:00Z`))!
    expect(field(jsonAnswer(today, NO_CONDITIONS).fields.flat, 'verification-age')).toBe('0')
    expect(api.record(index, rule.id, Date.parse(`${rule.verified_at!}T23:00:00Z`))).toBe(today)
    const later = Date.parse(`${rule.verified_at!}T08:00:00Z`) + 400 * 86_400_000
    const aged = api.record(index, rule.id, later)!
    expect(aged.etag).toBe(today.etag) // same bytes, same tag: only the header field moved
    expect(field(jsonAnswer(aged, NO_CONDITIONS).fields.flat, 'verification-age')).toBe('400;reverify')
  })
})
