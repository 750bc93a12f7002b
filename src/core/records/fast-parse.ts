/**
 * A zod schema compiled into plain functions (one per object) that accept what the schema accepts,
 * for the snapshot build's hot path. zod walks a tree of closures with a payload object, an issue array and
 * a run of checks per node: 12–16 µs of a record's 60 µs of build time, and about a sixth of a
 * build's CPU with its TurboFan compilations, in three isolates at every start.
 *
 * It is a fast path, never the judge: the compiled function answers with the value zod's `parse`
 * would give (same keys, same order, same trims), or UNSURE. UNSURE means "ask zod": any failure,
 * and anything this compiler does not reproduce exactly (a key named `__proto__`, a field present with the value `undefined`, a schema construct it does not
 * know). So a record it refuses gets zod's verdict and zod's messages, and the only promise it has
 * to keep is that whatever it accepts, zod accepts with the same output: `fast-parse.test.ts`
 * checks that against zod over the sample, a generated corpus and mutated records.
 *
 * It can also measure what it accepts (`parseMeasured`), for a build that reads records from JSON
 * text (an NDJSON line): with the measure, json-text.ts tells whether the text already is the
 * record's canonical JSON without serialising the record.
 *
 * Written by hand because no library compiles a zod schema (zod's own JIT covers an object's
 * fields, not the checks and closures under them; Ajv compiles JSON Schema, which cannot state a
 * trim or a format's test). It reads zod's definitions (`_zod.def`), which zod documents for
 * introspection; a construct it does not support is listed in `unsupported` and always answers
 * UNSURE, and a test requires the record schema to have none.
 */
import type { z } from 'zod'

/** The answer of a compiled check that leaves the verdict to zod. */
export const UNSURE: unique symbol = Symbol('fast-parse: unsure')

type FastParse<T> = (value: unknown) => T | typeof UNSURE

/** What a compiled check measured of an output it accepted, for json-text.ts. */
export type OutputMeasure = {
  /**
   * The length of JSON.stringify of the output, escapes counted as one character, numbers as
   * JSON.stringify spells them, when the output is its input as parsed: the same keys in the same
   * order, no string trimmed, no number but an object's member, no value of unknown shape. Else -1.
   */
  unescapedLength: number
  /** Per number of the output, in its order, the member it is the value of, as JSON text: `"price":`. */
  numberKeys: readonly string[]
  /** Per number of the output, in its order, as JSON.stringify spells it. */
  numberTexts: readonly string[]
}

/** An output a compiled check accepted, and what it measured of it: one object, made per call. */
export type Measured<T> = OutputMeasure & { output: T }

export type CompiledParse<T> = {
  parse: FastParse<T>
  /**
   * `parse`, answering with the output's measure beside it. The answer is the caller's: made for
   * this call, never rewritten by a later one. It runs per record, so it is one small object, and
   * arrays only when the output holds numbers.
   */
  parseMeasured: (value: unknown) => Measured<T> | typeof UNSURE
  /** Where the schema uses something this compiler does not reproduce (those paths always answer UNSURE). */
  unsupported: string[]
}

/**
 * The definition fields this compiler reads. zod's own `$ZodTypeDef` types are a union per schema
 * type; the compiler switches on `type` and reads the fields of that type.
 */
type Def = {
  type: string
  checks?: Schema[]
  check?: string
  format?: string
  pattern?: RegExp
  coerce?: boolean
  minimum?: number
  maximum?: number
  value?: unknown
  inclusive?: boolean
  tx?: (value: string) => string
  fn?: (value: string) => unknown
  entries?: Record<string, unknown>
  element?: Schema
  innerType?: Schema
  shape?: Record<string, Schema>
  catchall?: Schema
  options?: Schema[]
  keyType?: Schema
  valueType?: Schema
}
type Schema = { _zod: { def: Def; traits: Set<string>; values?: Set<unknown> } }

/** The JSON kind a schema's values have, for unions whose options are told apart by it; undefined when not one kind. */
function jsonKindOf(schema: Schema): 'string' | 'number' | 'boolean' | 'object' | 'array' | undefined {
  const def = schema._zod.def
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
      return def.type
    case 'object':
    case 'record':
      return 'object'
    case 'enum':
      return Object.values(def.entries ?? {}).every((v) => typeof v === 'string') ? 'string' : undefined
    default:
      return undefined
  }
}

/** The test of a value of one JSON kind, as an expression over `input`. */
function kindTest(kind: NonNullable<ReturnType<typeof jsonKindOf>>, input: string): string {
  switch (kind) {
    case 'array':
      return `Array.isArray(${input})`
    case 'object':
      return `(typeof ${input} === 'object' && ${input} !== null && !Array.isArray(${input}))`
    default:
      return `typeof ${input} === '${kind}'`
  }
}

const literal = (key: string) => JSON.stringify(key)
const hasChecks = (def: Def) => def.coerce === true || (def.checks?.length ?? 0) > 0
/** A schema's checks in the order zod runs them: a format (z.url(), z.int()) is a check of its own, first. */
const checksOf = (schema: Schema): Schema[] =>
  schema._zod.traits.has('$ZodCheck')
    ? [schema, ...(schema._zod.def.checks ?? [])]
    : (schema._zod.def.checks ?? [])

class Compiler {
  /** The functions compiled so far, one per object schema, the root's last; `#lines` is the one being written. */
  readonly functions: string[] = []
  #lines: string[] = []
  readonly constants: unknown[] = []
  readonly unsupported: string[] = []
  #next = 0

  constant(value: unknown): string {
    this.constants.push(value)
    return `c[${this.constants.length - 1}]`
  }

  variable(): string {
    return `v${this.#next++}`
  }

  emit(line: string): void {
    this.#lines.push(line)
  }

  /**
   * Writes the check of `schema` as a function of its own, named `name`, and returns the name. One
   * function per object keeps each small: TurboFan compiled the whole record's check as one function
   * in about 140 ms, in each build thread, and had to again whenever a rarely seen field (a video, a
   * chapter) first turned up; a part met rarely is now a function that is rarely compiled.
   */
  function(name: string, write: () => string): string {
    const outer = this.#lines
    this.#lines = []
    const result = write()
    this.functions.push(`function ${name}(input) {\n${this.#lines.join('\n')}\nreturn ${result}\n}`)
    this.#lines = outer
    return name
  }

  /**
   * Emits the check of `input` against `schema` and returns the variable holding its output (`return
   * U` on failure). `member`: when `input` is an object's member, an expression giving its key as
   * JSON text with its colon (`"price":`), for the measure of its numbers.
   */
  value(schema: Schema, input: string, path: string, member?: string): string {
    const def = schema._zod.def
    switch (def.type) {
      case 'string':
        return this.#string(schema, input, path)
      case 'number':
        return this.#number(schema, input, path, member)
      case 'boolean':
        if (hasChecks(def)) return this.#fail(path, 'checks or coercion on a boolean')
        this.emit(`if (typeof ${input} !== 'boolean') return U`)
        this.emit(`length += ${input} ? 4 : 5`)
        return input
      case 'enum': {
        const values = Object.values(def.entries ?? {})
        if (!values.every((v) => typeof v === 'string'))
          return this.#fail(path, 'an enum of other values than strings')
        if (hasChecks(def)) return this.#fail(path, 'checks on an enum')
        this.emit(`if (!${this.constant(new Set(values))}.has(${input})) return U`)
        this.emit(`length += ${input}.length + 2`)
        return input
      }
      case 'array':
        return this.#array(def, input, path)
      case 'object':
        return this.#object(def, input, path)
      case 'record':
        return this.#record(def, input, path)
      case 'union':
        return this.#union(def, input, path, member)
      case 'unknown':
      case 'any':
        this.emit(member === undefined ? 'plain = false' : `measureUnknown(${input}, ${member})`)
        return input
      default:
        return this.#fail(path, `a ${def.type}`)
    }
  }

  #fail(path: string, what: string): string {
    this.unsupported.push(`${path || '(root)'}: ${what}`)
    this.emit('return U')
    return 'undefined'
  }

  #string(schema: Schema, input: string, path: string): string {
    const def = schema._zod.def
    if (def.coerce === true) return this.#fail(path, 'a coerced string')
    this.emit(`if (typeof ${input} !== 'string') return U`)
    const out = this.variable()
    this.emit(`let ${out} = ${input}`)
    let transformed = false
    for (const check of checksOf(schema)) {
      const c = check._zod.def
      switch (c.check) {
        case 'overwrite':
          this.emit(`${out} = ${this.constant(c.tx)}(${out})`)
          transformed = true
          break
        case 'min_length':
          this.emit(`if (${out}.length < ${Number(c.minimum)}) return U`)
          break
        case 'max_length':
          this.emit(`if (${out}.length > ${Number(c.maximum)}) return U`)
          break
        case 'string_format':
          if (check._zod.traits.has('$ZodCustomStringFormat') && typeof c.fn === 'function') {
            // A format of our own (z.stringFormat): its test is zod's check itself, called as zod calls it.
            this.emit(`if (!${this.constant(c.fn)}(${out})) return U`)
          } else if (['regex', 'date', 'datetime'].includes(c.format ?? '') && c.pattern instanceof RegExp) {
            const pattern = this.constant(c.pattern)
            this.emit(`${pattern}.lastIndex = 0`)
            this.emit(`if (!${pattern}.test(${out})) return U`)
          } else return this.#fail(path, `the string format "${c.format}"`)
          break
        default:
          return this.#fail(path, `the string check "${c.check}"`)
      }
    }
    if (transformed) this.emit(`if (${out} !== ${input}) plain = false`)
    this.emit(`length += ${out}.length + 2`)
    return out
  }

  #number(schema: Schema, input: string, path: string, member: string | undefined): string {
    const def = schema._zod.def
    if (def.coerce === true) return this.#fail(path, 'a coerced number')
    this.emit(`if (typeof ${input} !== 'number' || !Number.isFinite(${input})) return U`)
    // A number has several spellings: json-text.ts finds each member's in the text, by its key.
    if (member === undefined) this.emit('plain = false')
    else this.emit(`measureNumber(${input}, ${member})`)
    for (const check of checksOf(schema)) {
      const c = check._zod.def
      if (c.check === 'number_format' && c.format === 'safeint')
        this.emit(`if (!Number.isSafeInteger(${input})) return U`)
      else if (c.check === 'greater_than' && typeof c.value === 'number')
        this.emit(`if (!(${input} ${c.inclusive ? '>=' : '>'} ${c.value})) return U`)
      else if (c.check === 'less_than' && typeof c.value === 'number')
        this.emit(`if (!(${input} ${c.inclusive ? '<=' : '<'} ${c.value})) return U`)
      else return this.#fail(path, `the number check "${c.check}" (${c.format ?? ''})`)
    }
    return input
  }

  #array(def: Def, input: string, path: string): string {
    this.emit(`if (!Array.isArray(${input})) return U`)
    for (const check of def.checks ?? []) {
      const c = check._zod.def
      if (c.check === 'min_length') this.emit(`if (${input}.length < ${Number(c.minimum)}) return U`)
      else if (c.check === 'max_length') this.emit(`if (${input}.length > ${Number(c.maximum)}) return U`)
      else return this.#fail(path, `the array check "${c.check}"`)
    }
    const out = this.variable()
    const i = this.variable()
    const element = this.variable()
    this.emit(`const ${out} = new Array(${input}.length)`)
    this.emit(`length += ${input}.length === 0 ? 2 : ${input}.length + 1`)
    this.emit(`for (let ${i} = 0; ${i} < ${input}.length; ${i}++) {`)
    this.emit(`const ${element} = ${input}[${i}]`)
    const result = this.value(def.element!, element, `${path}[]`)
    this.emit(`${out}[${i}] = ${result}`)
    this.emit('}')
    return out
  }

  /**
   * zod's object: a new object with the shape's keys in the shape's order (an optional key only when
   * present), then, for a loose object, the other keys in the input's order. A strict object refuses
   * other keys; a plain one drops them.
   */
  #object(def: Def, input: string, path: string): string {
    if (hasChecks(def)) return this.#fail(path, 'refinements on an object')
    const check = this.function(`object${this.#next++}`, () => this.#objectBody(def, 'input', path))
    const out = this.variable()
    this.emit(`const ${out} = ${check}(${input})`)
    this.emit(`if (${out} === U) return U`)
    return out
  }

  #objectBody(def: Def, input: string, path: string): string {
    const shape = def.shape ?? {}
    const keys = Object.keys(shape)
    if (Object.getOwnPropertySymbols(shape).length > 0 || keys.includes('__proto__'))
      return this.#fail(path, 'a symbol or __proto__ key')
    const catchall = def.catchall?._zod.def.type
    if (catchall !== undefined && catchall !== 'never' && catchall !== 'unknown')
      return this.#fail(path, `a catchall of ${catchall}`)
    this.emit(`if (!${kindTest('object', input)}) return U`)
    const out = this.variable()
    this.emit(`const ${out} = {}`)
    // Braces, then per key present its quotes, colon and comma (one comma too many, taken back below).
    const present = this.variable()
    this.emit(`let ${present} = 0`)
    for (const key of keys) {
      const field = shape[key]!
      const value = this.variable()
      this.emit(`const ${value} = ${input}[${literal(key)}]`)
      const optional = field._zod.def.type === 'optional'
      // Absent, or present as undefined (zod would then write undefined): both left to zod but an absent optional key.
      if (optional)
        this.emit(`if (${value} === undefined) { if (${literal(key)} in ${input}) return U } else {`)
      else this.emit(`if (${value} === undefined) return U`)
      const inner = optional ? field._zod.def.innerType! : field
      const result = this.value(
        inner,
        value,
        path === '' ? key : `${path}.${key}`,
        literal(`${literal(key)}:`),
      )
      this.emit(`${out}[${literal(key)}] = ${result}`)
      this.emit(`length += ${key.length + 4}; ${present}++`) // unescaped, as the strings are
      if (optional) this.emit('}')
    }
    if (catchall === undefined) {
      // A plain object drops the keys it does not know: its output may not be its input.
      this.emit('plain = false')
    } else {
      // The output's keys are in the shape's order: the input's must be too (`at`: the shape's rank).
      const key = this.variable()
      const at = this.variable()
      const last = this.variable()
      const known = keys.map((k, i) => `case ${literal(k)}: ${at} = ${i}; break`).join('; ')
      this.emit(`let ${last} = -1`)
      this.emit(`for (const ${key} in ${input}) {`)
      this.emit(`let ${at} = -1`)
      this.emit(`switch (${key}) { ${known} }`)
      this.emit(`if (${at} >= 0) { if (${at} < ${last}) plain = false; ${last} = ${at}; continue }`)
      // zod skips an undeclared __proto__ (assigning it would replace the result's prototype): judged there.
      this.emit(
        catchall === 'never'
          ? 'return U'
          : // After the shape's keys in the output: a shape's key after it in the input is out of order.
            `if (${key} === '__proto__') return U; ${out}[${key}] = ${input}[${key}]; ${last} = ${keys.length}; measureKey(${key}); measureUnknown(${input}[${key}], JSON.stringify(${key}) + ':'); ${present}++`,
      )
      this.emit('}')
    }
    this.emit(`length += ${present} === 0 ? 2 : 1`)
    return out
  }

  /** zod's record of string keys: a new object with the input's own keys in order, each value checked. */
  #record(def: Def, input: string, path: string): string {
    const keyDef = def.keyType?._zod.def
    if (keyDef?.type !== 'string' || hasChecks(keyDef) || def.keyType!._zod.values !== undefined) {
      return this.#fail(path, 'a record whose keys are not plain strings')
    }
    if (hasChecks(def)) return this.#fail(path, 'checks on a record')
    // zod asks for a plain object (its prototype Object's): JSON objects are.
    this.emit(
      `if (typeof ${input} !== 'object' || ${input} === null || Object.getPrototypeOf(${input}) !== Object.prototype) return U`,
    )
    const out = this.variable()
    const key = this.variable()
    const value = this.variable()
    const present = this.variable()
    this.emit(`const ${out} = {}`)
    this.emit(`let ${present} = 0`)
    this.emit(`for (const ${key} of Object.keys(${input})) {`)
    this.emit(`if (${key} === '__proto__') return U`)
    this.emit(`const ${value} = ${input}[${key}]`)
    const result = this.value(def.valueType!, value, `${path}{}`, `JSON.stringify(${key}) + ':'`)
    this.emit(`${out}[${key}] = ${result}`)
    this.emit(`measureKey(${key}); ${present}++`)
    this.emit('}')
    this.emit(`length += ${present} === 0 ? 2 : 1`)
    return out
  }

  /**
   * zod's union answers with its first option that accepts the value. Compiled only when the options
   * are of different JSON kinds: then at most one option can accept a value, the one of its kind.
   */
  #union(def: Def, input: string, path: string, member: string | undefined): string {
    const options = def.options ?? []
    const kinds = options.map(jsonKindOf)
    if (kinds.some((k) => k === undefined) || new Set(kinds).size !== kinds.length)
      return this.#fail(path, 'a union of options of one JSON kind')
    if (hasChecks(def)) return this.#fail(path, 'checks on a union')
    const out = this.variable()
    this.emit(`let ${out}`)
    options.forEach((option, i) => {
      this.emit(`${i === 0 ? '' : 'else '}if (${kindTest(kinds[i]!, input)}) {`)
      const result = this.value(option, input, path, member)
      this.emit(`${out} = ${result}`)
      this.emit('}')
    })
    this.emit('else return U')
    return out
  }
}

/**
 * Compiles `schema`; a runtime that refuses code generation (`--disallow-code-generation-from-strings`)
 * gets a function that always answers UNSURE, so zod judges every value there.
 */
export function compileFastParse<S extends z.ZodType>(schema: S): CompiledParse<z.output<S>> {
  const compiler = new Compiler()
  const root = compiler.function('fastParse', () => compiler.value(schema as unknown as Schema, 'input', ''))
  // The functions compiled measure into the scratch state below, which each call starts afresh;
  // only parseMeasured lets it out, as an object of the caller's.
  const body = `let length = 0, plain = true, numbers = 0
const numberKeys = [], numberTexts = []
const NO_NUMBERS = Object.freeze([])
function measureNumber(value, member) {
  const text = String(value)
  length += text.length
  numberKeys[numbers] = member
  numberTexts[numbers++] = text
}
// A key the schema does not name: its quotes, colon and comma. One that starts with a digit may be
// an array index, which an object lists before its other keys whatever the text's order: not measured.
function measureKey(key) {
  const first = key.charCodeAt(0)
  if (first >= 0x30 && first <= 0x39) plain = false
  length += key.length + 4
}
// A value of unknown shape: measured when it is a string, number, boolean or null; else not at all.
function measureUnknown(value, member) {
  if (typeof value === 'string') length += value.length + 2
  else if (typeof value === 'number') measureNumber(value, member)
  else if (typeof value === 'boolean') length += value ? 4 : 5
  else if (value === null) length += 4
  else plain = false
}
${compiler.functions.join('\n')}
function parse(input) {
  length = 0; plain = true; numbers = 0
  return ${root}(input)
}
function parseMeasured(input) {
  const output = parse(input)
  if (output === U) return U
  const unescapedLength = plain ? length : -1
  if (numbers === 0) return { output, unescapedLength, numberKeys: NO_NUMBERS, numberTexts: NO_NUMBERS }
  return { output, unescapedLength, numberKeys: numberKeys.slice(0, numbers), numberTexts: numberTexts.slice(0, numbers) }
}
return { parse, parseMeasured }`
  let compiled: Pick<CompiledParse<z.output<S>>, 'parse' | 'parseMeasured'>
  try {
    compiled = new Function('c', 'U', body)(compiler.constants, UNSURE) as typeof compiled
  } catch (err) {
    if (!(err instanceof EvalError)) throw err
    compiled = { parse: () => UNSURE, parseMeasured: () => UNSURE }
  }
  return { ...compiled, unsupported: compiler.unsupported }
}
