/**
 * Strict query-string parsing. Written by hand because the usual parsers are lenient in ways the
 * contract forbids: `URLSearchParams` and fast-querystring silently keep or replace malformed
 * percent-encoding and merge repeated keys, where we must refuse both with a 400 naming the parameter.
 */
import type { ParameterPairs } from '../core/api/params.js'
import { ApiError } from '../core/errors.js'

export type QueryPairs = ParameterPairs

/** Whether a raw request target is `root` itself or below it: "/mcp", "/mcp?x", "/mcp/x", but not "/mcpx". */
export function isUnderPath(target: string, root: string): boolean {
  if (!target.startsWith(root)) return false
  const next = target[root.length]
  return next === undefined || next === '/' || next === '?'
}

/** The query part of a raw request target, without the "?" (undefined when there is no "?"). */
export function rawQuery(url: string): string | undefined {
  const i = url.indexOf('?')
  return i === -1 ? undefined : url.slice(i + 1)
}

function decode(component: string, name: string): string {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '))
  } catch {
    throw new ApiError(
      'invalid_parameter',
      `Query parameter "${name}" has invalid percent-encoding (use UTF-8, e.g. %C3%A9 for é)`,
    )
  }
}

/** Parses `a=1&b=2`; keys keep every value given, so callers can refuse repetitions. */
export function parseQuery(query: string | undefined): QueryPairs {
  const pairs: QueryPairs = new Map()
  if (query === undefined || query === '') return pairs
  for (const part of query.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const rawName = eq === -1 ? part : part.slice(0, eq)
    const name = decode(rawName, rawName)
    const value = eq === -1 ? '' : decode(part.slice(eq + 1), name)
    const values = pairs.get(name)
    if (values === undefined) pairs.set(name, [value])
    else values.push(value)
  }
  return pairs
}
