/**
 * Whether the JSON text a record was parsed from already is its canonical JSON (what
 * JSON.stringify gives the validated record), told without serialising it: then the build stores
 * the text, or its bytes as read, instead of serialising the record again. Serialising and encoding
 * were a fifth of a record's build time, and a records file written by a program (the generator,
 * `reference-records dump`, a publication) is canonical line after line.
 *
 * Why the test below is exact. The compiled check (fast-parse.ts) gives `unescapedLength` only when
 * the record is its input as parsed: same keys in the same order, nothing trimmed, no value of
 * unknown shape, every number an object's member. Then:
 * - a text with no `\u` or `\/` escape writes each string as JSON.stringify does: a character is
 *   raw or one of the two-character escapes \" \\ \b \f \n \r \t, exactly those JSON.stringify
 *   writes (another control character can only be written \u00XX, a lone surrogate \uDXXX). `\/`
 *   has the length of those and must be refused by name; a `\u` escape, six characters, would also
 *   show in the length below;
 * - a number has several spellings ("100", "1e2", "100.0"): each member holding one is found in the
 *   text, in order, by its key, and must be spelled as JSON.stringify spells it. A `"key":` in the
 *   text is a member's key, never inside a string: there its quotes would be escaped, or a quote
 *   closing a string would make it a key holding an escaped quote, which the record's strict
 *   objects refuse;
 * - so the text's length is `unescapedLength` plus one per escape, plus whatever else it holds:
 *   white space between tokens, or members a later duplicate key replaced (each longer than the
 *   escapes inside it, and than what a shorter spelling of a number it stands in for saves). Equal
 *   lengths leave room for neither: the text is JSON.stringify's.
 */
import { isUtf8 } from 'node:buffer'
import type { OutputMeasure } from './fast-parse.js'

const LOWER_U = 0x75
const SLASH = 0x2f
const COMMA = 0x2c
const CLOSING_BRACE = 0x7d

/** Whether `json` is JSON.stringify of the record parsed from it, given what the compiled check measured (undefined: nothing). */
export function isCanonicalJson(json: string, measure: OutputMeasure | undefined): boolean {
  if (measure === undefined || measure.unescapedLength < 0) return false
  let escapes = 0
  for (let at = json.indexOf('\\'); at !== -1; at = json.indexOf('\\', at + 2)) {
    const escaped = json.charCodeAt(at + 1)
    if (escaped === LOWER_U || escaped === SLASH) return false
    escapes++
  }
  if (json.length !== measure.unescapedLength + escapes) return false
  for (let k = 0, from = 0; k < measure.numberKeys.length; k++) {
    const key = measure.numberKeys[k]!
    const at = json.indexOf(key, from)
    if (at === -1) return false
    from = at + key.length
    const text = measure.numberTexts[k]!
    if (!json.startsWith(text, from)) return false
    from += text.length
    const next = json.charCodeAt(from)
    if (next !== COMMA && next !== CLOSING_BRACE) return false
  }
  return true
}

/**
 * The UTF-8 bytes of a canonical `json`, when `bytes[start, end)` are they: the bytes it was decoded
 * from, if they were valid UTF-8 (an invalid sequence decodes to U+FFFD, whose bytes are others).
 */
export function canonicalBytes(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  const view = bytes.subarray(start, end)
  return isUtf8(view) ? view : undefined
}
