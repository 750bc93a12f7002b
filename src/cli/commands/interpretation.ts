/**
 * How the service read a search (the envelope's `interpretation`, when `q` was given), shown to a
 * person: the words ignored, the corrections and expansions applied, and, when nothing matched,
 * the queries that would match without one word, as commands to run. Read defensively: an older
 * service sends no interpretation, and a newer one may send more than this knows.
 */
import type { SearchInterpretation } from '../../client/index.js'
import { clean } from './format.js'

/** The envelope's `interpretation` object (component `SearchInterpretation` of the OpenAPI document). */
export type Interpretation = SearchInterpretation

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string')
const isList = <T>(v: unknown, item: (x: Record<string, unknown>) => boolean): v is T[] =>
  Array.isArray(v) &&
  v.every((x) => typeof x === 'object' && x !== null && item(x as Record<string, unknown>))

/** The interpretation of a search envelope, or undefined when there is none or it is not the expected shape. */
export function readInterpretation(envelope: unknown): Interpretation | undefined {
  const i = (envelope as { interpretation?: unknown } | null)?.interpretation as
    Record<string, unknown> | undefined
  if (typeof i !== 'object' || i === null) return undefined
  const ok =
    isStrings(i.words) &&
    isStrings(i.ignored) &&
    isList(i.corrected, (c) => typeof c.from === 'string' && typeof c.to === 'string') &&
    isList(i.expanded, (e) => typeof e.word === 'string' && isStrings(e.with)) &&
    isList(
      i.relaxed,
      (r) => typeof r.without === 'string' && typeof r.q === 'string' && Number.isInteger(r.total),
    )
  return ok ? (i as Interpretation) : undefined
}

/**
 * Under best match, the words each result of the page lacks, by record id; read as defensively as
 * the rest (a newer service may shape `missing` otherwise, and then nothing is shown).
 */
export function lackingWords(i: Interpretation | undefined): Map<string, string[]> {
  const missing: unknown = i?.missing
  const ok = isList<{ id: string; words: string[] }>(
    missing,
    (m) => typeof m.id === 'string' && isStrings(m.words),
  )
  return new Map(ok ? missing.map((m) => [m.id, m.words]) : [])
}

/** A word as a shell argument: left bare when it is plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\p{L}\p{N}_.,:/@%+=-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/** The filters to carry over to a suggested command (not the paging: a new search starts at the top). */
export type SearchFilters = { kind?: string; region?: string }

/** `reference-records search stationner --kind fact`: the command for another query with the same filters. */
export function searchCommand(q: string, filters: SearchFilters): string {
  const words = q
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => shellWord(clean(w)))
  const options = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `--${name} ${shellWord(String(value))}`)
  return ['reference-records search', ...words, ...options].join(' ')
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Lines that say how the words were read; none when everything was taken as typed. */
export function interpretationLines(i: Interpretation): string[] {
  const lines: string[] = []
  if (i.ignored.length > 0)
    lines.push(`Ignored (too common to search for): ${i.ignored.map(clean).join(', ')}`)
  if (i.corrected.length > 0)
    lines.push(`Corrected: ${i.corrected.map((c) => `${clean(c.from)} → ${clean(c.to)}`).join(', ')}`)
  if (i.expanded.length > 0) {
    lines.push(
      `Also matched: ${i.expanded.map((e) => `${clean(e.word)} (also ${e.with.map(clean).join(', ')})`).join('; ')}`,
    )
  }
  const leftOut = isStrings(i.left_out) ? i.left_out : []
  if (leftOut.length > 0 && isStrings(i.matched) && i.matched.length > 0) {
    lines.push(
      `No record has every word: the first hold ${i.matched.map(clean).join(', ')}, not ${leftOut.map(clean).join(', ')}; those after hold fewer`,
    )
  }
  if (lines.length > 0 && i.words.length > 0) lines.unshift(`Searched for: ${i.words.map(clean).join(' ')}`)
  return lines
}

/**
 * What to say when nothing matched: how words are matched (docs/api.md: a word counts as itself, a
 * form or an alias, never as the start of a longer word), and the searches that would find something.
 */
export function noMatchLines(i: Interpretation | undefined, filters: SearchFilters): string[] {
  const lines = [
    'No record has every word. A word counts when a record holds it, one of its forms (stationner,',
    'stationnement) or an alias (moto, motocyclette), accents and case aside; it is not matched as the',
    'start of a longer word ("agglo" does not find "agglomération"): try whole words, or fewer of them.',
  ]
  if (i === undefined || i.relaxed.length === 0) return lines
  const commands = i.relaxed.map((r) => searchCommand(r.q, filters))
  const width = Math.max(...commands.map((c) => c.length))
  lines.push('', 'Without one word, these would match:')
  i.relaxed.forEach((r, n) =>
    lines.push(
      `  ${commands[n]!.padEnd(width)}   # ${plural(r.total, 'record')}, without "${clean(r.without)}"`,
    ),
  )
  return lines
}
