/**
 * When a record last changed, for the sitemap's `lastmod`: the later of its modification and its
 * verification (a re-reading against the official text changes what the page says about it), as
 * the sitemap protocol's W3C datetime. A calendar date stays a date; a date-time is written in UTC,
 * one spelling per instant. Undefined when the record says neither: no date is better than an
 * invented one. A snapshot keeps it as two numbers per record (encodeLastChange), written back
 * exactly by `lastChangeText`, so the sitemap is made from the snapshot's columns, no record parsed.
 */
import type { Fact } from './record.js'

/** Milliseconds of a date (read as midnight UTC) or a date-time; NaN when it does not parse. */
export const dateTime = (text: string): number => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text)

/** The record's last change: its text as the record writes it and its instant; undefined when neither date parses. */
function latestDate(
  record: Pick<Fact, 'modified_at' | 'verified_at'>,
): { text: string; time: number } | undefined {
  let latest: { text: string; time: number } | undefined
  for (const text of [record.modified_at, record.verified_at]) {
    if (text === undefined) continue
    const time = dateTime(text)
    if (!Number.isNaN(time) && (latest === undefined || time > latest.time)) latest = { text, time }
  }
  return latest
}

/** A record's last change, as a snapshot column keeps it: its instant (NaN: none) and, for a calendar date, YYYYMMDD (0 otherwise). */
export type EncodedLastChange = { time: number; date: number }

export function encodeLastChange(record: Pick<Fact, 'modified_at' | 'verified_at'>): EncodedLastChange {
  const latest = latestDate(record)
  if (latest === undefined) return { time: NaN, date: 0 }
  const date = latest.text.length === 10 ? Number(latest.text.replaceAll('-', '')) : 0
  return { time: latest.time, date: Number.isInteger(date) ? date : 0 }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** The text of an encoded last change (undefined for none). */
export function lastChangeText({ time, date }: EncodedLastChange): string | undefined {
  if (Number.isNaN(time)) return undefined
  if (date !== 0)
    return `${pad(Math.floor(date / 10_000), 4)}-${pad(Math.floor(date / 100) % 100, 2)}-${pad(date % 100, 2)}`
  return new Date(time).toISOString()
}

/** The record's last change as the sitemap writes it. */
export const lastChange = (record: Pick<Fact, 'modified_at' | 'verified_at'>): string | undefined =>
  lastChangeText(encodeLastChange(record))
