/**
 * The MCP endpoint as the discovery documents describe it (llms.txt, the Server Card), asked of the
 * endpoint itself: the tools its `tools/list` answers, and the 2026-era revisions its
 * `server/discover` names, through the same handler that answers POST /mcp. So the documents name
 * the tools and revisions a client will meet, whatever the MCP adapter registers, without the HTTP
 * adapter knowing the protocol. Asked when a document is built (the card once, llms.txt once per
 * snapshot), never for a client's request; answered once, while the service starts (describeMcp).
 */
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server'
import type { McpDescription, McpToolSummary } from '../http/discovery/identity.js'
import type { McpNodeHandler } from '../mcp/node-handler.js'
import { MCP_SERVER_NAME } from '../mcp/server.js'
import { keptUntilFailure } from '../core/kept-promise.js'

/**
 * The revision a `server/discover` request names (a 2026-era request must name one). The SDK keeps
 * its list of 2026-era revisions internal; the answer lists them all, and a refusal (a revision no
 * longer served) lists them too, so this is only the question, never the published answer.
 */
const DISCOVER_REVISION = '2026-07-28'
/** tools/list pages followed at most: a few tools fit in one. */
const MAX_TOOL_PAGES = 10

type JsonRpcAnswer = {
  result?: Record<string, unknown>
  error?: { message?: string; data?: { supported?: unknown } }
}

/** One JSON-RPC request through the handler, as a client's POST /mcp would arrive (mcp-warm-up.ts asks too). */
export async function ask(
  handler: Pick<McpNodeHandler, 'answer'>,
  revision: string,
  method: string,
  params: object = {},
): Promise<JsonRpcAnswer> {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': String(body.length),
    'mcp-protocol-version': revision,
    'mcp-method': method,
  }
  const req = Object.assign(Readable.from([body]), {
    method: 'POST',
    url: '/mcp',
    headers,
  }) as unknown as IncomingMessage
  const answer = await handler.answer(req)
  if (!('reply' in answer)) throw new Error(`mcp: ${method} was answered with a stream, not one JSON result`)
  return JSON.parse(Buffer.concat(answer.reply.body).toString('utf8')) as JsonRpcAnswer
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

/** The 2026-era revisions the endpoint serves, newest first: discover's answer, or the list its refusal gives. */
async function modernRevisions(handler: Pick<McpNodeHandler, 'answer'>): Promise<string[]> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': DISCOVER_REVISION,
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  const answer = await ask(handler, DISCOVER_REVISION, 'server/discover', { _meta: meta })
  const served =
    answer.result === undefined
      ? strings(answer.error?.data?.supported)
      : strings(answer.result.supportedVersions)
  return served.sort().reverse()
}

async function listTools(handler: Pick<McpNodeHandler, 'answer'>): Promise<McpToolSummary[]> {
  const tools: McpToolSummary[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const answer = await ask(
      handler,
      LATEST_PROTOCOL_VERSION,
      'tools/list',
      cursor === undefined ? {} : { cursor },
    )
    if (answer.result === undefined)
      throw new Error(`mcp: tools/list failed: ${answer.error?.message ?? 'no result'}`)
    for (const t of (answer.result.tools ?? []) as McpToolSummary[])
      tools.push({ name: t.name, title: t.title, description: t.description })
    cursor = typeof answer.result.nextCursor === 'string' ? answer.result.nextCursor : undefined
    if (cursor === undefined) break
  }
  return tools
}

/**
 * The description of the endpoint `handler` serves. Its 2025-era revisions are the SDK's list
 * (`SUPPORTED_PROTOCOL_VERSIONS`, what the `initialize` handshake accepts); its 2026-era ones are asked.
 *
 * Both answers are asked at once and kept: the tools and revisions are registered when the handler
 * is made and never change while it serves. Asking first at a client's request made that request
 * pay for the handler's first run (issue 43): 38–55 ms of the serving thread for the first
 * `/llms.txt` or Server Card, whatever the number of records; asked here, that happens while the
 * service starts, before it listens.
 */
export function describeMcp(handler: Pick<McpNodeHandler, 'answer'>): McpDescription {
  const protocolVersions = keptUntilFailure(async () => [
    ...(await modernRevisions(handler)),
    ...SUPPORTED_PROTOCOL_VERSIONS,
  ])
  const tools = keptUntilFailure(() => listTools(handler))
  // A failure now is not kept: the document that needs the answer asks again, and reports it.
  protocolVersions().catch(() => undefined)
  tools().catch(() => undefined)
  return { name: MCP_SERVER_NAME, protocolVersions, tools }
}
