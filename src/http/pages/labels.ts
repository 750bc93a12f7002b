/**
 * The pages' words for what a record is and what it rests on, in French. The rules are the core's
 * (records/provenance.ts: which kinds explain or sell, what makes a record official, what a
 * verification is); only the wording is the pages'. Typed by kind, so a new kind cannot be left unnamed.
 */
import { isOfficial } from '../../core/records/provenance.js'
import type { Fact } from '../../core/records/record.js'

// Each kind's French name lives in the core, so the MCP app's cards say what the pages say.
export { KIND_LABELS_FR } from '../../core/records/kind-labels.js'

export const REGION_LABELS_FR: Readonly<Record<'france', string>> = { france: 'France' }

/** "15 septembre 2026" from "2026-09-15", "1er juillet 2015" from "2015-07-01" (dates are calendar dates: no time zone shifts them). */
const DATE = new Intl.DateTimeFormat('fr-FR', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})
export const frenchDate = (isoDate: string): string => {
  const date = new Date(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate)
  // French writes the first day of a month as an ordinal: "1er juillet".
  return Number.isNaN(date.getTime()) ? isoDate : DATE.format(date).replace(/^1 /, '1er ')
}

const COUNT = new Intl.NumberFormat('fr-FR')
export const frenchCount = (n: number): string => COUNT.format(n)
/** "1 fiche", "12 fiches", "0 fiche" (French counts zero in the singular). */
export const fiches = (n: number): string => `${frenchCount(n)} fiche${n > 1 ? 's' : ''}`

/** What a page shows of a record's provenance, following the core's rules (provenanceLines). */
export type Provenance = {
  official: boolean
  /** "Sources officielles" for a rule, "Sources officielles citées" for an explanation that cites them. */
  officialHeading?: string
  officialSources: Fact['sources']
  otherSources: Fact['sources']
  /** "Vérifiée sur le texte officiel le 15 septembre 2026", or for an official record without a date, that it is not documented. */
  verification?: string
  verificationScope?: string
  inForceSince?: string
}

export function provenanceOf(record: Fact): Provenance {
  const official = isOfficial(record)
  const verification =
    record.verified_at !== undefined
      ? `Vérifiée sur le texte officiel le ${frenchDate(record.verified_at)}`
      : official
        ? 'Date de vérification : non documentée'
        : undefined
  return {
    official,
    officialHeading: official
      ? record.kind === 'fact'
        ? 'Sources officielles'
        : 'Sources officielles citées'
      : undefined,
    officialSources: record.sources.filter((s) => s.type === 'official'),
    otherSources: record.sources.filter((s) => s.type !== 'official'),
    verification,
    verificationScope: record.verified_at === undefined ? undefined : record.verification_scope,
    inForceSince:
      record.effective_from === undefined
        ? undefined
        : `En vigueur depuis le ${frenchDate(record.effective_from)}`,
  }
}

/** The words of the other source types, for people. */
export const SOURCE_TYPE_FR: Readonly<Record<Fact['sources'][number]['type'], string>> = {
  official: 'texte officiel',
  operator: 'exploitant',
  brand: 'marque',
  source: 'référence',
}

/**
 * "4 min 32 s" from "PT4M32S", "1 h 05 min" from "PT1H5M": a video's ISO 8601 duration as a reader
 * writes it. Anything else is shown as the record gives it.
 */
export function frenchDuration(iso: string): string {
  const parts = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?$/i.exec(iso.trim())
  if (parts === null || iso.trim().toUpperCase() === 'PT') return iso
  const [hours, minutes, seconds] = [parts[1], parts[2], parts[3]].map((p) =>
    p === undefined ? 0 : Number(p.replace(',', '.')),
  ) as [number, number, number]
  const total = Math.round(hours * 3600 + minutes * 60 + seconds)
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60]
  if (h > 0) return m > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${h} h`
  if (m > 0) return s > 0 ? `${m} min ${String(s).padStart(2, '0')} s` : `${m} min`
  return `${s} s`
}

/**
 * French puts a space before « : », « ; », « ? », « ! » and « » », and after « « »: a no-break space
 * there keeps a long title from breaking into a line that starts with ": 50 km/h".
 */
export const frenchSpacing = (text: string): string =>
  text.replace(/ ([:;!?»])/gu, '\u00a0$1').replace(/« /gu, '«\u00a0')
