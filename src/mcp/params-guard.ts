/**
 * Requests whose params do not fit their method, refused with JSON-RPC Invalid params (-32602) and
 * one line naming the parameter and what it expects.
 *
 * The SDK validates a request's params against the spec's schema inside the handler it registers,
 * and throws a plain Error holding the whole zod issue list: its dispatcher then answers -32603
 * "internal error" with that dump (a number as `uri` in resources/read, an object as a list cursor).
 * `tools/call` alone answers -32602, with the same dump. So requests are checked here first, between
 * the transport and the protocol, against the same spec schemas (`specTypeSchemas`, the SDK's own),
 * and only what those schemas refuse is answered here: what they accept goes on to the SDK unchanged.
 */
import {
  ProtocolErrorCode,
  isJSONRPCRequest,
  specTypeSchemas,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server'

type Issue = {
  code: string
  path: PropertyKey[]
  message: string
  expected?: string
  values?: unknown[]
}
type ZodLike = { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } }

/** The first revision of the 2026 era, where initialize, ping and logging/setLevel are gone. */
const FIRST_MODERN_REVISION = '2026-07-28'

/** The spec schema of each request method this server answers, and the era(s) it exists in. */
const METHODS: Record<string, { schema: keyof typeof specTypeSchemas; era?: 'legacy' | 'modern' }> = {
  initialize: { schema: 'InitializeRequest', era: 'legacy' },
  ping: { schema: 'PingRequest', era: 'legacy' },
  'logging/setLevel': { schema: 'SetLevelRequest', era: 'legacy' },
  'server/discover': { schema: 'DiscoverRequest', era: 'modern' },
  'tools/list': { schema: 'ListToolsRequest' },
  'tools/call': { schema: 'CallToolRequest' },
  'resources/list': { schema: 'ListResourcesRequest' },
  'resources/templates/list': { schema: 'ListResourceTemplatesRequest' },
  'resources/read': { schema: 'ReadResourceRequest' },
  'prompts/list': { schema: 'ListPromptsRequest' },
  'prompts/get': { schema: 'GetPromptRequest' },
  'completion/complete': { schema: 'CompleteRequest' },
}

const CURSOR = 'a string (the nextCursor of the previous page)'
/** What a parameter holds, in words, where its type alone says too little ("method path" or "* path"). */
const EXPECTS: Record<string, string> = {
  '* params': 'an object',
  '* cursor': CURSOR,
  '* _meta': 'an object',
  'initialize protocolVersion': 'a string (the protocol revision the client speaks, such as "2025-11-25")',
  'initialize capabilities': 'an object (the client capabilities)',
  'initialize clientInfo': 'an object {"name": …, "version": …} of strings',
  'tools/call name': 'a string (the name of a tool from tools/list)',
  'tools/call arguments': 'an object (the tool arguments by name)',
  'resources/read uri': 'a string (the URI of a resource, from resources/list or the record template)',
  'prompts/get name': 'a string (the name of a prompt from prompts/list)',
  'prompts/get arguments': 'an object whose values are strings (the prompt arguments by name)',
  'completion/complete ref':
    'an object {"type": "ref/prompt", "name": …} or {"type": "ref/resource", "uri": …}',
  'completion/complete argument': 'an object {"name": …, "value": …} of strings',
  'completion/complete context': 'an object {"arguments": {…}} of strings',
  'logging/setLevel level':
    'one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
}

/** Why `message`'s params do not fit its method, in one line; undefined when they do (or it is not checked here). */
function paramsProblem(message: unknown, revision: string | undefined): string | undefined {
  if (!isJSONRPCRequest(message as JSONRPCMessage)) return undefined
  const { method, params } = message as { method: string; params?: unknown }
  return problemOf(method, params, revision)
}

function problemOf(method: string, params: unknown, revision: string | undefined): string | undefined {
  const entry = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined
  if (entry === undefined) return undefined
  // A method the era does not have is the SDK's to refuse (Method not found), whatever its params.
  const era = revision !== undefined && revision >= FIRST_MODERN_REVISION ? 'modern' : 'legacy'
  if (entry.era !== undefined && entry.era !== era) return undefined
  const schema = specTypeSchemas[entry.schema] as unknown as ZodLike
  const parsed = schema.safeParse({ method, ...(params === undefined ? {} : { params }) })
  const issue = parsed.success ? undefined : parsed.error?.issues[0]
  if (issue === undefined) return undefined
  return describe(method, params, issue)
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * paramsProblem, for the requests whose params (or their `_meta`, in the 2025 era, where it is no
 * envelope) are not an object at all: the SDK's transports refuse those as malformed messages
 * (-32600) before a server sees them, so the HTTP handler asks first. Undefined for any other request.
 */
export function paramsShapeProblem(message: unknown, revision: string | undefined): string | undefined {
  if (!isPlainObject(message) || !('params' in message) || typeof message.method !== 'string')
    return undefined
  if (!(typeof message.id === 'string' || typeof message.id === 'number')) return undefined
  const { params } = message
  const modern = revision !== undefined && revision >= FIRST_MODERN_REVISION
  const malformed = !isPlainObject(params) || (!modern && '_meta' in params && !isPlainObject(params._meta))
  return malformed ? problemOf(message.method, params, revision) : undefined
}

function describe(method: string, params: unknown, issue: Issue): string {
  const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path
  const name = path.length === 0 ? 'params' : path.map(String).join('.')
  const expects = EXPECTS[`${method} ${name}`] ?? EXPECTS[`* ${name}`] ?? expectedOf(method, path, issue)
  const value = path.reduce<unknown>(
    (v, key) => (typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    params,
  )
  const head = `Invalid params for ${method}: "${name}"`
  return value === undefined
    ? `${head} is missing; it must be ${expects}`
    : `${head} must be ${expects}, not ${kindOf(value)}`
}

function expectedOf(method: string, path: PropertyKey[], issue: Issue): string {
  // A prompt argument's value, or a completion context's: the protocol carries them as strings.
  if (method === 'prompts/get' && path[0] === 'arguments') return 'a string (prompt arguments are strings)'
  if (issue.code === 'invalid_type' && issue.expected !== undefined)
    return TYPE_WORDS[issue.expected] ?? issue.expected
  if (issue.code === 'invalid_value' && issue.values !== undefined)
    return issue.values.length === 1
      ? JSON.stringify(issue.values[0])
      : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
  // Bounds and formats: zod's own sentence is one line and says what is expected.
  return issue.message.replace(/^Invalid input: /, '').replace(/^expected /, '')
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
  if (typeof value === 'number') return `the number ${value}`
  return `the ${typeof value} ${String(value)}`
}

/**
 * Puts the check in front of whatever dispatcher the protocol installs on `transport` (as its
 * `onmessage`, when it connects): a request the check refuses is answered on the transport, after a
 * microtask as the SDK answers its handlers' errors, and never reaches the protocol. Installed before
 * the connection starts, so no message can pass unchecked. `revision` says which era the connection
 * serves when a message comes, unless the transport classified the message itself.
 */
export function guardRequestParams(transport: Transport, revision: () => string | undefined): void {
  let dispatch: Transport['onmessage']
  const guarded: NonNullable<Transport['onmessage']> = (message, extra) => {
    const classified = (extra as { classification?: { revision?: string } } | undefined)?.classification
    const problem = paramsProblem(message, classified?.revision ?? revision())
    if (problem === undefined) return dispatch?.(message, extra)
    const { id } = message as { id: string | number }
    const refusal = {
      jsonrpc: '2.0' as const,
      id,
      error: { code: ProtocolErrorCode.InvalidParams, message: problem },
    }
    queueMicrotask(
      () => void transport.send(refusal).catch((err: unknown) => transport.onerror?.(err as Error)),
    )
  }
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    // Undefined until the protocol sets its dispatcher: the protocol chains to what it finds there.
    get: () => (dispatch === undefined ? undefined : guarded),
    set: (next: Transport['onmessage']) => void (dispatch = next),
  })
}
