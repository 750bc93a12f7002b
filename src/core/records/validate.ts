/**
 * Validation of a whole batch of raw records against the one schema, plus the rules that span
 * records (unique ids). All-or-nothing: any problem rejects the batch, so a bad update never
 * replaces good data and nothing is served half-loaded.
 */
import type { z } from 'zod'
import { FactSchema, type Fact } from './record.js'

/** Where a raw record came from, for messages: "record 3" or "line 7". */
export type RawRecord = { value: unknown; where: string }

const MAX_REPORTED_PROBLEMS = 20

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? `field "${issue.path.join('.')}"` : 'record'
  if (issue.code === 'unrecognized_keys') return `${field}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
  return `${field}: ${issue.message}`
}

/** Validates every record; throws one Error listing the problems (first 20) if any record is bad. */
export function validateRecords(origin: string, raw: readonly RawRecord[]): Fact[] {
  const problems: string[] = []
  const records: Fact[] = []
  const firstSeen = new Map<string, string>()
  for (const { value, where } of raw) {
    const result = FactSchema.safeParse(value)
    const id = typeof (value as { id?: unknown })?.id === 'string' ? ` (id "${(value as { id: string }).id}")` : ''
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(`${where}${id}: ${describeIssue(issue)}`)
      continue
    }
    const seen = firstSeen.get(result.data.id)
    if (seen !== undefined) problems.push(`${where}${id}: field "id": duplicate id, first used by ${seen}`)
    else firstSeen.set(result.data.id, where)
    records.push(result.data)
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS)
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : ''
    throw new Error(`records: ${origin}: ${problems.length} problem(s), nothing loaded\n  ${shown.join('\n  ')}${more}`)
  }
  return records
}
