/**
 * The three forms of a records file, told apart once, and their parsing with messages that say
 * where the problem is: a JSON array of records, NDJSON (one record per line), or a snapshot object
 * `{"published_at": "…", "records": [ … ]}`. A JSON syntax error is reported at the parser's line and
 * column; a file of another shape is named as such instead of being read as records.
 */
import { isUtf8 } from 'node:buffer'
import { visit } from 'jsonc-parser'
import type { RawRecord } from './validate.js'

export type FileFormat = 'ndjson' | 'document'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

type JsonResult = { ok: true; value: unknown } | { ok: false; error: string }
function tryJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (err) {
    return { ok: false, error: (err as Error).message }
  }
}

/**
 * The format, from the start of the file: NDJSON when the first line alone is a complete JSON object
 * other than a snapshot wrapper; otherwise one JSON document (an array, a snapshot, possibly
 * pretty-printed), parsed whole so that a syntax error is reported where the parser found it.
 */
export function detectFormat(head: string): FileFormat {
  const text = head.replace(/^\uFEFF/, '').trimStart() // NDJSON may start with blank lines
  const newline = text.indexOf('\n')
  if (newline === -1 || !text.startsWith('{')) return 'document'
  const first = tryJson(text.slice(0, newline))
  if (!first.ok || !isObject(first.value) || 'records' in first.value) return 'document'
  // One object on one line is NDJSON when it is a record or more lines follow; a lone `{"foo":1}` is
  // a document of the wrong shape, and is named so instead of being read as a bad record.
  return 'id' in first.value || text.slice(newline).trim() !== '' ? 'ndjson' : 'document'
}

type Location = { line: number; column: number }

/** Line and column (1-based) of an offset in `text`. */
function locate(text: string, offset: number): Location {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 }
}

/**
 * Where the first syntax error is: V8's position when its message has one, else the first error of a
 * scanner that always reports positions (V8 says only "Unexpected token 'o'" for some errors).
 */
function syntaxErrorAt(text: string, parserMessage: string): Location | undefined {
  const position = /at position (\d+)/.exec(parserMessage)
  if (position !== null) return locate(text, Number(position[1]))
  let at: Location | undefined
  visit(
    text,
    {
      onError: (_error, _offset, _length, line, character) =>
        void (at ??= { line: line + 1, column: character + 1 }),
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  )
  return at
}

/** V8's reason without the position (given better above) and without the echo of the whole text. */
const reasonOf = (message: string): string =>
  message.replace(/, ".*" is not valid JSON$/s, '').replace(/ (in JSON )?at position \d+.*$/s, '')

/** `records: <origin>: line 2, column 14: not valid JSON (Expected double-quoted property name)`. */
function syntaxError(origin: string, text: string, parserMessage: string, ndjsonLine?: number): Error {
  const at = syntaxErrorAt(text, parserMessage)
  const line = ndjsonLine ?? at?.line
  const where = [line === undefined ? '' : `line ${line}`, at === undefined ? '' : `column ${at.column}`]
    .filter((w) => w !== '')
    .join(', ')
  return new Error(
    `records: ${origin}: ${where === '' ? '' : `${where}: `}not valid JSON (${reasonOf(parserMessage)})`,
  )
}

/** What a JSON value is, for a message that says what was found instead of records. */
function describeValue(value: unknown): string {
  if (isObject(value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return 'an empty JSON object'
    const shown = keys
      .slice(0, 5)
      .map((k) => JSON.stringify(k))
      .join(', ')
    return `a JSON object with the key${keys.length === 1 ? '' : 's'} ${shown}${keys.length > 5 ? ', …' : ''}`
  }
  return value === null ? 'null' : `a JSON ${typeof value}`
}

const EXPECTED = 'expected a JSON array of records, NDJSON (one record per line) or {"records": [...]}'

/** Parses a whole-document file: an array, a snapshot object, or a single record (one-line NDJSON). */
export function parseDocument(origin: string, text: string): { raw: RawRecord[]; publishedAt?: string } {
  if (text.trim() === '') throw new Error(`records: ${origin}: the file is empty`)
  const parsed = tryJson(text)
  if (!parsed.ok) throw syntaxError(origin, text, parsed.error)
  const value = parsed.value
  if (Array.isArray(value)) return { raw: value.map((v, i) => ({ value: v, where: `record ${i}` })) }
  if (isObject(value) && 'records' in value) return parseSnapshot(origin, value)
  // A lone object with an id is a one-record NDJSON file; any other shape is not a records file.
  if (isObject(value) && 'id' in value) return { raw: [{ value, where: 'line 1' }] }
  throw new Error(`records: ${origin}: ${EXPECTED}; found ${describeValue(value)}`)
}

function parseSnapshot(
  origin: string,
  value: Record<string, unknown>,
): { raw: RawRecord[]; publishedAt?: string } {
  if (!Array.isArray(value.records)) throw new Error(`records: ${origin}: "records" must be an array`)
  const publishedAt = value.published_at
  if (
    publishedAt !== undefined &&
    (typeof publishedAt !== 'string' || Number.isNaN(Date.parse(publishedAt)))
  ) {
    throw new Error(`records: ${origin}: "published_at" must be an RFC 3339 date-time`)
  }
  return {
    raw: value.records.map((v, i) => ({ value: v, where: `record ${i}` })),
    publishedAt: publishedAt === undefined ? undefined : new Date(publishedAt).toISOString(),
  }
}

/** One NDJSON line (numbered from 1): a raw record, or undefined for a blank line. */
export function parseNdjsonLine(origin: string, line: string, number: number): RawRecord | undefined {
  if (line.trim() === '') return undefined
  const parsed = tryJson(line)
  if (!parsed.ok) throw syntaxError(origin, line, parsed.error, number)
  return { value: parsed.value, where: `line ${number}` }
}

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
}

/** A file-system error as one line naming the file: `records: file:/srv/records.json: cannot read the file: no such file (ENOENT)`. */
export function readError(origin: string, code: string): Error {
  const why = READ_ERRORS[code]
  return new Error(
    `records: ${origin}: cannot read the file: ${why === undefined ? code : `${why} (${code})`}`,
  )
}

/**
 * Refuses bytes that are not UTF-8, naming the line (`lineNumber` when `bytes` is one line): decoded
 * as they are, each bad byte would become U+FFFD, and a Latin-1 file would load with every accent
 * replaced and no search for an accented word finding anything.
 */
export function checkUtf8(origin: string, bytes: Uint8Array, lineNumber?: number): void {
  if (isUtf8(bytes)) return
  let line = lineNumber ?? 1
  if (lineNumber === undefined)
    for (let start = 0; start < bytes.length; line++) {
      const end = bytes.indexOf(0x0a, start)
      if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) break
      start = end === -1 ? bytes.length : end + 1
    }
  throw new Error(
    `records: ${origin}: line ${line}: not valid UTF-8; a records file must be UTF-8 (was it saved as Latin-1?)`,
  )
}
