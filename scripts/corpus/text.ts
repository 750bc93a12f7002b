/** Small text and date helpers for the corpus generator. */
import type { Rng } from './prng.js'

const DAY_MS = 86_400_000

/** A calendar date (YYYY-MM-DD) drawn uniformly between two dates, both included. */
export function dateBetween(rng: Rng, from: string, to: string): string {
  const start = Date.parse(`${from}T00:00:00Z`)
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - start) / DAY_MS)
  return new Date(start + rng.between(0, days) * DAY_MS).toISOString().slice(0, 10)
}

/** An RFC 3339 date-time in UTC, to the minute, drawn between two dates (e.g. "2026-03-14T09:30:00Z"). */
export function dateTimeBetween(rng: Rng, from: string, to: string): string {
  const minutes = rng.between(7 * 60, 19 * 60) // office hours, as in the sample
  const date = dateBetween(rng, from, to)
  return `${date}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00Z`
}

/** An URL path segment from a title: ASCII, lower case, hyphens, at most 60 characters. */
export function slugify(title: string): string {
  const slug = title
    .replace(/[œŒ]/g, 'oe')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug === '' ? 'fiche' : slug
}
