/**
 * What a `tools/call` was and how it ended, for the metrics (MCP calls by tool and outcome): read
 * from the request and from the answer's bytes, so a kept answer (call-cache.ts) is counted like the
 * SDK's own. The tool label is one of this server's tools or `unknown`: a client's made-up name
 * never becomes a label.
 */
import type { IncomingMessage } from 'node:http'

/** The tools server.ts registers (a test lists them through tools/list and compares). */
export const TOOL_NAMES: ReadonlySet<string> = new Set([
  'search_facts',
  'get_fact',
  'get_catalogue',
  'search',
  'fetch',
])
const UNKNOWN_TOOL = 'unknown'

/** ok: a result; error: a result marked isError, or the server failed; invalid: refused (arguments, unknown tool, malformed). */
export type ToolCallOutcome = 'ok' | 'error' | 'invalid'

/**
 * Told of every tools/call answered: its tool label and outcome, and for tracing the HTTP request
 * that carried it and the JSON-RPC message as parsed (its `params._meta` may hold a `traceparent`).
 */
export type ToolCallObserver = (
  tool: string,
  outcome: ToolCallOutcome,
  request: IncomingMessage,
  message: unknown,
) => void

/** The tool label of `message` when it is a tools/call request, else undefined. */
export function toolCalled(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined
  const { method, params } = message as { method?: unknown; params?: unknown }
  if (method !== 'tools/call') return undefined
  const name = typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined
  return typeof name === 'string' && TOOL_NAMES.has(name) ? name : UNKNOWN_TOOL
}

// JSON-RPC's codes for a request refused as sent (parse error, invalid request, method not found, invalid params).
const REFUSED_CODES = new Set([-32700, -32600, -32601, -32602])
/** How the SDK words a refused argument or tool when it answers with a result rather than an error. */
const REFUSED_TEXT = /^(MCP error -3260[12]|Input validation error|Tool \S+ not found)/

/** How the JSON answer `body` to a tools/call ended. */
export function toolCallOutcome(body: string): ToolCallOutcome {
  let answer: unknown
  try {
    answer = JSON.parse(body)
  } catch {
    return 'error'
  }
  if (typeof answer !== 'object' || answer === null) return 'error'
  const { error, result } = answer as { error?: { code?: unknown }; result?: unknown }
  if (error !== undefined) return REFUSED_CODES.has(error?.code as number) ? 'invalid' : 'error'
  if (typeof result !== 'object' || result === null) return 'error'
  const { isError, content } = result as { isError?: unknown; content?: unknown }
  if (isError !== true) return 'ok'
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined
  return typeof first?.text === 'string' && REFUSED_TEXT.test(first.text) ? 'invalid' : 'error'
}
