/**
 * Validation of raw records against the one schema, plus the rules that span records (unique ids).
 * All-or-nothing: any problem rejects the whole set, so a bad update never replaces good data and
 * nothing is served half-loaded. Records are checked one at a time as a source streams them
 * (`RecordValidator`), so a large set is never held as raw objects.
 */
import type { z } from 'zod'
import { compileFastParse, UNSURE, type Measured, type OutputMeasure } from './fast-parse.js'
import { FactSchema, RecordFieldsSchema, recordRuleIssues, type Fact } from './record.js'
import { contentProblem } from './record-content.js'

/** Where a raw record came from, for messages: "record 3" or "line 7". */
export type RawRecord = { value: unknown; where: string }

const MAX_REPORTED_PROBLEMS = 20

/**
 * The record's fields compiled (fast-parse.ts): a record it accepts, and whose cross-field rules
 * hold, is what FactSchema would answer; anything else is judged, and described, by FactSchema.
 */
const fastFields = compileFastParse(RecordFieldsSchema)

/** A valid record as FactSchema gives it, or undefined when FactSchema must judge it (it may be invalid). */
export function fastParseRecord(value: unknown): Fact | undefined {
  return fastCheckRecord(value)?.output
}

/** fastParseRecord, with what the compiled check measured of the record. */
function fastCheckRecord(value: unknown): Measured<Fact> | undefined {
  const fast = fastFields.parseMeasured(value)
  return fast === UNSURE || recordRuleIssues(fast.output).length > 0 ? undefined : fast
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? `field "${issue.path.join('.')}"` : 'record'
  if (issue.code === 'unrecognized_keys')
    return `${field}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
  return `${field}: ${issue.message}`
}

export type ValidationProblems = { reported: string[]; count: number }

/**
 * A record `check` accepted, and what the compiled check measured of it (fast-parse.ts), for
 * json-text.ts; `measure` is undefined when zod judged the record. Both belong to this answer: a
 * later check changes neither.
 */
export type CheckedRecord = { record: Fact; measure: OutputMeasure | undefined }

/**
 * Checks records one by one and gathers the problems; `finish()` throws them all (the first 20) if
 * there is any. Duplicate ids are the caller's to report (`duplicate`), since it is the caller that
 * keeps the ids: a set of them here would be a second copy.
 */
export class RecordValidator {
  readonly #problems: string[] = []
  #count = 0

  constructor(readonly origin: string) {}

  /** The record and its measure if it is valid; undefined (and a problem noted) otherwise. */
  check(value: unknown, where: string): CheckedRecord | undefined {
    // Before the schema: what it would pass through unchanged (an open field's `__proto__`, a NUL) is refused here.
    const problem = contentProblem(value)
    if (problem !== undefined) {
      this.#note(`${where}${idOf(value)}: ${problem}`)
      return undefined
    }
    const fast = fastCheckRecord(value)
    // The compiled check's answer serves as the measure (it holds the output too): one object fewer per record.
    if (fast !== undefined) return { record: fast.output, measure: fast }
    const result = FactSchema.safeParse(value)
    if (result.success) return { record: result.data, measure: undefined }
    for (const issue of result.error.issues) this.#note(`${where}${idOf(value)}: ${describeIssue(issue)}`)
    return undefined
  }

  /** Notes a second record with an id already used. */
  duplicate(id: string, where: string, firstWhere: string): void {
    this.#note(`${where} (id "${id}"): field "id": duplicate id, first used by ${firstWhere}`)
  }

  get failed(): boolean {
    return this.#count > 0
  }

  /** The problems noted so far: the first 20, and how many in all (to carry a part's problems to another thread). */
  problems(): ValidationProblems {
    return { reported: [...this.#problems], count: this.#count }
  }

  /** Adds the problems of records read after this validator's own (another part of the same source). */
  absorb(later: ValidationProblems): void {
    for (const problem of later.reported)
      if (this.#problems.length < MAX_REPORTED_PROBLEMS) this.#problems.push(problem)
    this.#count += later.count
  }

  /** Throws every problem noted, naming `origin` (the source's, or what exactly was read). */
  finish(origin = this.origin): void {
    if (this.#count === 0) return
    const more =
      this.#count > this.#problems.length ? `\n  … and ${this.#count - this.#problems.length} more` : ''
    throw new Error(
      `records: ${origin}: ${this.#count} problem(s), nothing loaded\n  ${this.#problems.join('\n  ')}${more}`,
    )
  }

  #note(problem: string): void {
    if (this.#problems.length < MAX_REPORTED_PROBLEMS) this.#problems.push(problem)
    this.#count++
  }
}

const idOf = (value: unknown) =>
  typeof (value as { id?: unknown })?.id === 'string' ? ` (id "${(value as { id: string }).id}")` : ''

/** The valid records of a set gathered in memory (small sets: publishing, tools, tests), ids checked unique. */
export class ValidRecords {
  readonly #validator: RecordValidator
  readonly #records: Fact[] = []
  readonly #firstSeen = new Map<string, string>()

  constructor(origin: string) {
    this.#validator = new RecordValidator(origin)
  }

  add(value: unknown, where: string): void {
    const record = this.#validator.check(value, where)?.record
    if (record === undefined) return
    const seen = this.#firstSeen.get(record.id)
    if (seen !== undefined) this.#validator.duplicate(record.id, where, seen)
    else this.#firstSeen.set(record.id, where)
    this.#records.push(record)
  }

  /** The records; throws as RecordValidator does when any was bad. */
  finish(origin?: string): Fact[] {
    this.#validator.finish(origin)
    return this.#records
  }
}
