/**
 * Kept tools/call answers are the SDK's own bytes (issue 14, "one set of semantics"): the same calls,
 * in both protocol eras, are sent to a service that keeps answers and to one that sends every call to
 * the SDK; every answer must have the same status, header fields (apart from Date and the request id)
 * and bytes — the JSON-RPC id aside, which must be each request's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpCall, type McpEra } from '../../bench/lib/mcp-mix.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

const RECORD = 'fait-643b555e754f953d'
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'search_facts', arguments: { q: 'vitesse', limit: 10 } },
  { name: 'search_facts', arguments: { q: 'vitesse agglomération', kind: 'fact' } },
  { name: 'search_facts', arguments: { kind: 'lesson', limit: 3, offset: 1 } },
  { name: 'search_facts', arguments: { q: 'trotinette autoroute' } },
  { name: 'search_facts', arguments: { q: 'vitesse', limit: 51 } }, // invalid: the SDK's tool error, kept too
  { name: 'search_facts', arguments: { nope: 1 } },
  { name: 'get_fact', arguments: { id: RECORD } },
  { name: 'get_fact', arguments: { id: 'fait-0000000000000000' } },
  { name: 'get_catalogue', arguments: {} },
  { name: 'no_such_tool', arguments: {} },
]

async function call(
  server: TestServer,
  era: McpEra,
  id: number | string,
  name: string,
  args: Record<string, unknown>,
) {
  const { headers, body } = mcpCall(era, 0, args)
  const message = JSON.parse(body)
  message.id = id
  message.params.name = name
  const sent = { ...headers, 'x-request-id': 'diff', ...(era === 'modern' ? { 'Mcp-Name': name } : {}) }
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: sent,
    body: JSON.stringify(message),
  })
  const headersSeen: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    if (name !== 'date') headersSeen[name] = value
  })
  if (typeof headersSeen.ratelimit === 'string')
    headersSeen.ratelimit = headersSeen.ratelimit.replace(/;t=\d+/, ';t=…')
  return { status: res.status, headers: headersSeen, text: await res.text() }
}

describe('kept tools/call answers against the SDK', () => {
  let keeping: TestServer
  let sdk: TestServer
  beforeAll(
    async () =>
      ([keeping, sdk] = await Promise.all([
        startTestServer({}, { fastPath: true }),
        startTestServer({}, { fastPath: false }),
      ])),
  )
  afterAll(() => Promise.all([keeping?.close(), sdk?.close()]))

  it.for(['legacy', 'modern'] as const)('%s era: the same bytes but the id, call after call', async (era) => {
    let n = 0
    for (const round of [1, 2, 3]) {
      for (const { name, arguments: args } of CALLS) {
        // Ids of both JSON-RPC types, a new one each time: a kept answer must carry the request's own.
        const id = n++ % 2 === 0 ? n * 7 : `call-${n}`
        const [a, b] = await Promise.all([call(keeping, era, id, name, args), call(sdk, era, id, name, args)])
        expect(a, `${name} ${JSON.stringify(args)} (round ${round})`).toEqual(b)
        if (a.status === 200) expect(JSON.parse(a.text).id).toEqual(id)
      }
    }
    // Rounds 2 and 3 were answered from kept answers on one side only.
    const kept = async (server: TestServer) =>
      Number(
        /^reference_records_mcp_kept_answers_total (\d+)$/m.exec((await server.raw('/metrics')).text)?.[1],
      )
    expect(await kept(sdk)).toBe(0)
    expect(await kept(keeping)).toBeGreaterThanOrEqual(2 * (CALLS.length - 1))
  })
})
