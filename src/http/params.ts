/** Turns a parsed query (or path) into typed parameters with a schema from schemas.ts, or a 400 naming the parameter. */
import { z } from 'zod'
import { ApiError } from '../errors.js'
import type { QueryPairs } from './query.js'

const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s)

/** Validates query pairs against a strict object schema: unknown, repeated and invalid parameters are 400s. */
export function validateQuery<S extends z.ZodObject>(schema: S, pairs: QueryPairs): z.infer<S> {
  const allowed = Object.keys(schema.shape)
  const unknown = [...pairs.keys()].filter((name) => !allowed.includes(name))
  if (unknown.length > 0) {
    const names = unknown.map(quote).join(', ')
    const what = allowed.length === 1 ? `the only parameter allowed here is ${allowed[0]}` : `allowed: ${allowed.join(', ')}`
    throw new ApiError('invalid_parameter', `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${what}`)
  }
  const input: Record<string, string> = {}
  for (const [name, values] of pairs) {
    if (values.length > 1) throw new ApiError('invalid_parameter', `Query parameter "${name}" is given ${values.length} times; give it at most once`)
    input[name] = values[0]!
  }
  return parseWith(schema, input, 'Query parameter')
}

/** Validates path parameters (e.g. the record id). */
export function validatePath<S extends z.ZodObject>(schema: S, params: Record<string, string>): z.infer<S> {
  return parseWith(schema, params, 'Path parameter')
}

function parseWith<S extends z.ZodObject>(schema: S, input: Record<string, string>, where: string): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const name = String(issue.path[0] ?? '?')
  throw new ApiError('invalid_parameter', `${where} "${name}" ${issue.message} (got ${quote(input[name] ?? '')})`)
}
