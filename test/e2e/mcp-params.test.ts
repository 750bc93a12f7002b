/**
 * Every wrongly typed protocol argument, in both protocol eras, over HTTP: generated from a table of
 * each method's params (their JSON type and whether they may be left out), each replaced in turn by
 * every other kind of JSON value and by nothing. Each must answer JSON-RPC Invalid params (-32602)
 * with one line that names the parameter and says what it expects: no internal error (-32603), no
 * stack, no validation dump. The requests are sent raw: an SDK client would refuse to send them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

type Kind = 'number' | 'string' | 'boolean' | 'null' | 'object' | 'array' | 'missing'
const WRONG_VALUES: Record<Exclude<Kind, 'missing'>, unknown> = {
  number: 5,
  string: 'tout sauf ça',
  boolean: true,
  null: null,
  object: { a: 1 },
  array: ['a'],
}
const KINDS = Object.keys(WRONG_VALUES) as Exclude<Kind, 'missing'>[]

type Era = '2025' | '2026'
/**
 * A parameter: its path in params, the kind it must be, whether it may be left out, and the name a
 * refusal gives it (when left out: `namedWhenMissing`).
 */
type Param = { path: string[]; kind: Kind; optional?: boolean; named?: string; namedWhenMissing?: string }
type Method = { method: string; eras: Era[]; valid: Record<string, unknown>; params: Param[] }

const cursor: Param[] = [{ path: ['cursor'], kind: 'string', optional: true }]
const METHODS: Method[] = [
  {
    method: 'initialize',
    eras: ['2025'],
    valid: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    params: [
      { path: ['protocolVersion'], kind: 'string' },
      { path: ['capabilities'], kind: 'object' },
      { path: ['clientInfo'], kind: 'object' },
      { path: ['clientInfo', 'name'], kind: 'string' },
      { path: ['clientInfo', 'version'], kind: 'string' },
    ],
  },
  {
    method: 'ping',
    eras: ['2025'],
    valid: {},
    params: [{ path: ['_meta'], kind: 'object', optional: true }],
  },
  { method: 'tools/list', eras: ['2025', '2026'], valid: {}, params: cursor },
  {
    method: 'tools/call',
    eras: ['2025', '2026'],
    valid: { name: 'get_catalogue', arguments: {} },
    params: [
      { path: ['name'], kind: 'string' },
      { path: ['arguments'], kind: 'object', optional: true },
    ],
  },
  { method: 'resources/list', eras: ['2025', '2026'], valid: {}, params: cursor },
  { method: 'resources/templates/list', eras: ['2025', '2026'], valid: {}, params: cursor },
  {
    method: 'resources/read',
    eras: ['2025', '2026'],
    valid: { uri: 'reference-records://catalogue' },
    params: [{ path: ['uri'], kind: 'string' }],
  },
  { method: 'prompts/list', eras: ['2025', '2026'], valid: {}, params: cursor },
  {
    method: 'prompts/get',
    eras: ['2025', '2026'],
    valid: { name: 'answer_road_question', arguments: { question: 'priorité à droite ?' } },
    params: [
      { path: ['name'], kind: 'string' },
      // Left out, the prompt's one argument is missing: the refusal names it.
      { path: ['arguments'], kind: 'object', namedWhenMissing: 'question' },
      { path: ['arguments', 'question'], kind: 'string', named: 'question' },
    ],
  },
  {
    method: 'completion/complete',
    eras: ['2025', '2026'],
    valid: {
      ref: { type: 'ref/prompt', name: 'explain_rule_for_learner' },
      argument: { name: 'rule', value: 'prio' },
      context: { arguments: {} },
    },
    params: [
      { path: ['ref'], kind: 'object' },
      { path: ['ref', 'type'], kind: 'string', named: 'ref' },
      { path: ['ref', 'name'], kind: 'string', named: 'ref' },
      { path: ['argument'], kind: 'object' },
      { path: ['argument', 'name'], kind: 'string' },
      { path: ['argument', 'value'], kind: 'string' },
      { path: ['context'], kind: 'object', optional: true },
      { path: ['context', 'arguments'], kind: 'object', optional: true },
    ],
  },
  {
    method: 'logging/setLevel',
    eras: ['2025'],
    valid: { level: 'info' },
    params: [{ path: ['level'], kind: 'string' }],
  },
]
// A level is a string, but not any string: "loud" is as wrong as a number.
const EXTRA_CASES: { method: string; eras: Era[]; params: Record<string, unknown>; named: string }[] = [
  { method: 'logging/setLevel', eras: ['2025'], params: { level: 'loud' }, named: 'level' },
  {
    method: 'completion/complete',
    eras: ['2025', '2026'],
    params: { ref: { type: 'ref/nothing', name: 'x' }, argument: { name: 'rule', value: 'p' } },
    named: 'ref',
  },
]

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
}
/** The request field an era-2026 client repeats in the Mcp-Name header, when it is a string. */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
}

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.close())

let nextId = 1
async function send(era: Era, method: string, params: Record<string, unknown>) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era === '2025' ? '2025-11-25' : '2026-07-28',
  }
  let body = params
  if (era === '2026') {
    headers['mcp-method'] = method
    const name = NAME_FIELD[method] === undefined ? undefined : params[NAME_FIELD[method]]
    if (typeof name === 'string') headers['mcp-name'] = name
    body = { ...params, _meta: ENVELOPE }
  }
  const id = nextId++
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: body }),
  })
  return {
    status: res.status,
    id,
    body: (await res.json()) as { id: unknown; result?: unknown; error?: any },
  }
}

/** `valid` with the value at `path` replaced by `value` (or removed). */
function replaced(valid: Record<string, unknown>, path: string[], value: unknown, remove: boolean) {
  const copy = structuredClone(valid)
  let at: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {}
    at = at[key] as Record<string, unknown>
  }
  const last = path.at(-1)!
  if (remove) delete at[last]
  else at[last] = value
  return copy
}

function expectNamedRefusal(answer: Awaited<ReturnType<typeof send>>, named: string, label: string) {
  expect(answer.status, label).toBe(200)
  expect(answer.body.id, label).toBe(answer.id)
  expect(answer.body.error, `${label}: ${JSON.stringify(answer.body)}`).toBeDefined()
  const { code, message } = answer.body.error
  expect(code, `${label}: ${message}`).toBe(-32602)
  expect(message, label).not.toMatch(/\n/)
  expect(message, label).not.toMatch(/"code":|"path":|ZodError|at .+:\d+:\d+/)
  expect(message.length, label).toBeLessThan(300)
  expect(message, label).toContain(named)
  expect(message, label).toMatch(/must be|is missing/)
}

for (const era of ['2025', '2026'] as const) {
  describe(`the ${era} era`, () => {
    for (const m of METHODS.filter((m) => m.eras.includes(era))) {
      it(`${m.method} answers its valid params`, async () => {
        const answer = await send(era, m.method, m.valid)
        expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined()
        expect(answer.body.result).toBeDefined()
      })
      for (const param of m.params) {
        const name = param.named ?? param.path.join('.')
        const wrong: [Kind, unknown][] = KINDS.filter((k) => k !== param.kind).map((k) => [
          k,
          WRONG_VALUES[k],
        ])
        if (!param.optional) wrong.push(['missing', undefined])
        it(`${m.method}: "${param.path.join('.')}" of each wrong kind is refused naming it`, async () => {
          for (const [kind, value] of wrong) {
            const params = replaced(m.valid, param.path, value, kind === 'missing')
            const named = kind === 'missing' ? (param.namedWhenMissing ?? name) : name
            expectNamedRefusal(await send(era, m.method, params), named, `${m.method} ${name} = ${kind}`)
          }
        })
      }
    }
    for (const c of EXTRA_CASES.filter((c) => c.eras.includes(era)))
      it(`${c.method}: ${JSON.stringify(c.params)} is refused naming "${c.named}"`, async () => {
        expectNamedRefusal(await send(era, c.method, c.params), c.named, c.method)
      })
  })
}

describe('params that are not an object at all', () => {
  it('are refused naming "params", in the 2025 era', async () => {
    for (const method of ['ping', 'tools/list', 'resources/read', 'prompts/get', 'completion/complete'])
      for (const kind of ['number', 'string', 'boolean', 'null', 'array'] as const)
        expectNamedRefusal(
          await send('2025', method, WRONG_VALUES[kind] as Record<string, unknown>),
          'params',
          `${method} params = ${kind}`,
        )
  })
})

describe('methods the 2026-07-28 era removed', () => {
  it('answer Method not found there, whatever their params', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel']) {
      const answer = await send('2026', method, { level: 5, protocolVersion: 5 })
      expect(answer.body.error?.code, method).toBe(-32601)
    }
  })
})
