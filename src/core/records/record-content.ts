/**
 * What a record may hold, whatever its fields: the rules the schema cannot state, checked on the
 * parsed value before the schema sees it. Each is a value a publication would otherwise change
 * without a word (docs/contract.md "Records are refused, never altered"): PostgreSQL refuses NUL and
 * lone surrogates in JSON, XML 1.0 has no other C0 control character nor U+FFFE and U+FFFF (the
 * Atom feed and the sitemap would be invalid, or would have to drop them), JSON has no Infinity (`1e400` is read as one and written back as `null`),
 * a `__proto__` key is dropped by the first object spread, and a record nested thousands of levels
 * deep overflows a recursive reader. The size rules bound the open fields (`offer_data`…), whose
 * members the schema leaves free.
 */
import { RECORD_BOUNDS } from './record-bounds.js'

/** Keys that name an object's prototype machinery: a copy, a merge or a spread treats them apart. */
const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * The characters XML 1.0 leaves out of its `Char` production, lone surrogates apart (isWellFormed
 * finds those): the C0 controls but tab, line feed and carriage return, and U+FFFE, U+FFFF. A
 * record's text reaches XML (the Atom feed's titles, the sitemap's addresses), and a feed reader
 * refuses a whole document for one of them. NUL has a message of its own (PostgreSQL refuses it too).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

/** Names for the forbidden characters most often met (word processors export U+000B for a line break). */
const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0x00: 'a NUL character',
  0x08: 'a backspace',
  0x0b: 'a vertical tab',
  0x0c: 'a form feed',
  0x1b: 'an escape character',
  0xfffe: 'a noncharacter',
  0xffff: 'a noncharacter',
}

/** Why `text` cannot be a record's string (undefined when it can), naming the character and where it is. */
function characterProblem(text: string): string | undefined {
  const at = text.search(XML_FORBIDDEN)
  if (at !== -1) {
    const code = text.charCodeAt(at)
    const name = CHARACTER_NAMES[code] ?? 'a control character'
    const hex = code.toString(16).toUpperCase().padStart(4, '0')
    return `holds ${name} (U+${hex}) at character ${at + 1}, which XML 1.0 forbids (of the controls, only tab, line feed and carriage return are allowed)`
  }
  if (!text.isWellFormed()) return 'holds a lone surrogate (not a Unicode character)'
  return undefined
}

/** Why a record is refused, naming the field (`field "offer_data.__proto__": …`); undefined when none of these rules is broken. */
export function contentProblem(value: unknown): string | undefined {
  const walk = new ContentWalk()
  return walk.visit(value, 1) ? undefined : walk.problem
}

class ContentWalk {
  readonly #path: (string | number)[] = []
  #characters = 0
  problem = ''

  /** False (and `problem` set) at the first rule broken in `value`, found at nesting `depth`. */
  visit(value: unknown, depth: number): boolean {
    if (typeof value === 'string') return this.#string(value)
    if (typeof value === 'number')
      return (
        Number.isFinite(value) ||
        this.#refuse('a number larger than a JSON number can hold (it would be read as Infinity)')
      )
    if (typeof value !== 'object' || value === null) return true
    if (depth > RECORD_BOUNDS.depth)
      return this.#refuse(`nested more than ${RECORD_BOUNDS.depth} levels deep`)
    if (Array.isArray(value)) {
      if (value.length > RECORD_BOUNDS.arrayItems)
        return this.#refuse(`more than ${RECORD_BOUNDS.arrayItems} items (${value.length})`)
      for (let i = 0; i < value.length; i++) if (!this.#member(i, value[i], depth)) return false
      return true
    }
    const keys = Object.keys(value)
    if (keys.length > RECORD_BOUNDS.objectMembers)
      return this.#refuse(`more than ${RECORD_BOUNDS.objectMembers} members (${keys.length})`)
    for (const key of keys) {
      if (REFUSED_KEYS.has(key)) {
        this.#path.push(key)
        return this.#refuse(`the key "${key}" is refused (it would be dropped or misread by a copy)`)
      }
      const keyProblem = characterProblem(key)
      if (keyProblem !== undefined) {
        // Written as JSON writes it: the message must not carry the character it refuses.
        this.#path.push(JSON.stringify(key).slice(1, -1))
        return this.#refuse(`the key ${keyProblem}`)
      }
      if (
        !this.#countCharacters(key.length) ||
        !this.#member(key, (value as Record<string, unknown>)[key], depth)
      )
        return false
    }
    return true
  }

  #member(key: string | number, value: unknown, depth: number): boolean {
    this.#path.push(key)
    const ok = this.visit(value, depth + 1)
    if (ok) this.#path.pop()
    return ok
  }

  #string(value: string): boolean {
    const problem = characterProblem(value)
    return problem === undefined ? this.#countCharacters(value.length) : this.#refuse(problem)
  }

  #countCharacters(length: number): boolean {
    this.#characters += length
    if (this.#characters <= RECORD_BOUNDS.totalCharacters) return true
    this.#path.length = 0
    return this.#refuse(`more than ${RECORD_BOUNDS.totalCharacters} characters in all its strings`)
  }

  #refuse(reason: string): false {
    this.problem =
      this.#path.length === 0 ? `record: ${reason}` : `field "${this.#path.join('.')}": ${reason}`
    return false
  }
}
