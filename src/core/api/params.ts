/**
 * Turns named parameters into typed ones with a schema from schemas.ts, or an `invalid_parameter`
 * error naming the parameter. Whatever the transport (a query string, tool arguments), the same
 * rules hold: unknown, repeated and invalid parameters are refused, never ignored or clamped.
 */
import { z } from 'zod'
import { ApiError } from '../errors.js'

/** Parameters as they arrived, by name, with every value given (so repetitions can be refused). */
export type ParameterPairs = Map<string, string[]>

const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s)

/** Validates query pairs against a strict object schema: unknown, repeated and invalid parameters are 400s. */
export function validateQuery<S extends z.ZodObject>(schema: S, pairs: ParameterPairs): z.infer<S> {
  const allowed = Object.keys(schema.shape)
  const unknown = [...pairs.keys()].filter((name) => !allowed.includes(name))
  if (unknown.length > 0) {
    const names = unknown.map(quote).join(', ')
    const what =
      allowed.length === 1
        ? `the only parameter allowed here is ${allowed[0]}`
        : `allowed: ${allowed.join(', ')}`
    throw new ApiError(
      'invalid_parameter',
      `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${what}`,
    )
  }
  const input: Record<string, string> = {}
  for (const [name, values] of pairs) {
    if (values.length > 1)
      throw new ApiError(
        'invalid_parameter',
        `Query parameter "${name}" is given ${values.length} times; give it at most once`,
      )
    input[name] = values[0]!
  }
  return parseWith(schema, input, 'Query parameter')
}

/** Validates path parameters (e.g. the record id). */
export function validatePath<S extends z.ZodObject>(schema: S, params: Record<string, string>): z.infer<S> {
  return parseWith(schema, params, 'Path parameter')
}

function parseWith<S extends z.ZodObject>(
  schema: S,
  input: Record<string, string>,
  where: string,
): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const name = String(issue.path[0] ?? '?')
  throw new ApiError(
    'invalid_parameter',
    `${where} "${name}" ${issue.message} (got ${quote(input[name] ?? '')})`,
  )
}
